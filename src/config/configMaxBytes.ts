/** Largest config file read: the commented example is 30 KB; past this it is not a config. */
export const CONFIG_MAX_BYTES = 4 * 1024 * 1024;
