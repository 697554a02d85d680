/**
 * Per-route policy, given as a route's `config` and read by requestGuard. `auth`: behind the token
 * when one is set (always), or only with metricsAuth. `boundary`: the route starts work or changes
 * state, so a browser may send it only from the daemon's own origin ('state'); 'run' also refuses
 * a GET fetched as an embedded resource.
 */
export interface RouteAuth {
  auth?: 'always' | 'metrics';
  boundary?: 'state' | 'run';
}
