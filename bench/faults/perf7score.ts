import { analyzedTexts, analyzeFile, type Case, check, runCases } from './shared.js';

/**
 * The learned score from outside (branch perf7score): `analyze` computes it on every text, and
 * its normalised tail is lowered, where the Turkish capital İ (U+0130) becomes two chars. A
 * Turkish answer with a few of them in its last 1 KB made the score outgrow the repeat search's
 * table and `analyze` exit 1 with a stack trace; it is judged now, and so is a run of nothing
 * but that letter. About 1 s.
 */

const TEXTS = {
  // prose with seven İ in its last 1,024 chars: lowered and its white space collapsed, 1,028 chars
  turkish:
    "Geçen hafta sonu ailemle birlikte Karadeniz kıyısındaki küçük bir köye gittik. Yol uzundu ama manzara her kilometrede değişiyordu: önce geniş buğday tarlaları, sonra sisli tepeler ve en sonunda çay bahçeleriyle kaplı yamaçlar. Köye vardığımızda yağmur yeni dinmişti ve havada ıslak toprak kokusu vardı.\n\nEv sahibimiz emekli bir öğretmendi. Bize bölgenin tarihini anlattı, eski taş köprünün hangi yüzyılda yapıldığını ve neden hâlâ ayakta durduğunu açıkladı. Akşam yemeğinde mısır ekmeği, karalahana çorbası ve taze tereyağı vardı; tatlı olarak da fındıklı bir helva ikram etti.\n\nErtesi sabah erkenden kalkıp şelaleye yürüdük. Patika dar ve kaygandı, bu yüzden çocuklar ellerimizi hiç bırakmadı. Yarım saat sonra suyun sesi duyulmaya başladı ve ağaçların arasından beyaz köpüklü bir su perdesi göründü. Orada bir süre oturup sessizce izledik.\n\nDönüş yolunda küçük bir pazara uğradık. Yaşlı bir kadın el örgüsü çoraplar satıyordu, yanındaki tezgâhta ise bal ve reçel kavanozları diziliydi. Birkaç hediye aldık ve kadınla uzun uzun sohbet ettik; bize gençliğinde şehre hiç gitmediğini, bütün hayatını bu vadide geçirdiğini anlattı.\n\nİstanbul'a döndüğümüzde herkes yorgundu ama mutluyduk. İzmir'deki kuzenlerimize de anlattık; İlkay ile İpek de bir sonraki yolculuğa katılmak istiyor. İlk fırsatta, belki İlkbaharda, yeniden gitmeyi planlıyoruz. İyi ki gitmişiz.\n",
  // the letter alone, far past the 1 KB the repeat is sought in
  dotted: 'İ'.repeat(3000),
};

export async function perf7scoreCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const { file, healthy } = analyzedTexts(root, 'perf7score', TEXTS);
  const cases: Case[] = [
    ['analyze: a Turkish answer whose tail lowers to more than 1 KB is judged ok, the score computed', () => healthy('turkish')],
    [
      'analyze: 3,000 Turkish capitals İ are judged (a verdict in JSON, no crash)',
      async () => {
        const a = await analyzeFile(file('dotted'));
        check(a.verdict === 'ok' || a.verdict === 'warn' || a.verdict === 'fail', `exit ${a.code}, verdict ${a.verdict}`);
        return `exit ${a.code}, ${a.verdict}${a.reason ? `: ${a.reason.slice(0, 80)}` : ''}`;
      },
    ],
  ];
  await runCases(cases, results);
}
