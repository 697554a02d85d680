/**
 * Function words (articles, pronouns, prepositions, auxiliaries, conjunctions) of the
 * languages models most often write in Latin and Cyrillic script. Healthy prose in any
 * of them has 30–55% function words; a word salad of nouns has almost none. The list
 * is deliberately short and common; it only has to separate prose from noun soup.
 */
/** The words by language (ISO 639-1), each list as written: a word two languages share is in both. */
export const FUNCTION_WORDS_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  en: words(`
a an the and or but nor so yet if then than that this these those there here
of to in on at by for with from into onto over under about after before between
through during without within upon across against among toward towards via per
is are was were be been being am do does did done has have had having will would
shall should can could may might must not no yes
i me my mine we us our you your he him his she her it its they them their
who whom whose which what when where why how all any each every some such both
either neither other another more most less much many few very also just only too
as because while although though until unless since whether
`),
  fr: words(`
le la les un une des du de et est sont pas que qui pour dans sur avec au aux ce
cette ces il elle ils elles nous vous je tu ne se sa son ses leur en ou mais
`),
  de: words(`
der die das den dem des ein eine einer eines einem und ist sind nicht zu mit von
auf für ich du er sie es wir ihr aber oder wenn auch als wie noch bei aus nach
`),
  es: words(`
el los las una unos unas y es son por para con del al lo se su sus pero como
`),
  it: words(`
il lo gli di che non per una uno sono alla della nel
`),
  pt: words(`
o os as um uma e em do da dos das no na não com ao
`),
  nl: words(`
het een van en is niet dat op te zijn voor met
`),
  ru: words(`
и в во не на что с со как а то по это он она они мы вы я к у же за из от бы
так но для или его её их был была было были есть
ко о об обо до при над под без через после перед между про около среди вместо кроме против
если чтобы когда где куда пока потому поэтому также тоже ли даже уже ещё еще только лишь ни нет да либо
все всё всех всем всеми весь вся этот эта эти этого этой этих этим этом эту тот та те того той тех том
там тут здесь который которая которое которые которого которой которых которым кто чем чего
ему ей им ним ними них неё нее ней себя себе свой своя свои своего своей своих
мой моя мои наш наша наши ваш ваша ваши меня мне нас нам вас вам ты тебя тебе
будет будут быть может могут можно нужно надо должен должна должно должны очень более менее
`),
};

function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w.length > 0);
}

export const FUNCTION_WORDS: ReadonlySet<string> = new Set(Object.values(FUNCTION_WORDS_BY_LANGUAGE).flat());
