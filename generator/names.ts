import type { Sex } from '../services/events/index.ts';

/** A name in its native spelling and in the Latin spelling the registry keeps beside it. */
export interface NameForms {
  readonly native: string;
  readonly latin: string;
}

export interface Nation {
  /** ISO 3166-1 alpha-2 of the matching entry of PLACES. */
  readonly code: string;
  readonly given: Readonly<Record<Sex, readonly NameForms[]>>;
  readonly surnames: Readonly<Record<Sex, readonly NameForms[]>>;
}

// German passports spell umlauts out (Müller → Mueller); other Latin-script nations drop marks.
const GERMAN_LETTERS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss' };
const LETTERS_WITHOUT_DECOMPOSITION: Readonly<Record<string, string>> = { ł: 'l', Ł: 'L', ß: 'ss', đ: 'd', ø: 'o' };

/** The Latin spelling without diacritics, as in a passport's machine-readable line. */
export function foldToAscii(text: string, german = false): string {
  const spelled = german ? text.replace(/[äöüÄÖÜß]/g, (c) => GERMAN_LETTERS[c] ?? c) : text;
  return spelled
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁßđø]/g, (c) => LETTERS_WITHOUT_DECOMPOSITION[c] ?? c);
}

// Lists are written compactly: "male/female" for gendered surnames, "native=latin" where the
// native spelling is not in Latin script; otherwise the Latin form is the folded native one.
function forms(list: string, german: boolean): NameForms[] {
  return list.split(' ').map((entry) => {
    const [native = entry, latin] = entry.split('=');
    return { native: native.replaceAll('_', ' '), latin: (latin ?? foldToAscii(native, german)).replaceAll('_', ' ') };
  });
}

function nation(code: string, male: string, female: string, surnames: string, german = false): Nation {
  const maleSurnames: string[] = [];
  const femaleSurnames: string[] = [];
  for (const entry of surnames.split(' ')) {
    const [m = entry, f = m] = entry.split('/');
    maleSurnames.push(m);
    femaleSurnames.push(f);
  }
  return {
    code,
    given: { MALE: forms(male, german), FEMALE: forms(female, german) },
    surnames: { MALE: forms(maleSurnames.join(' '), german), FEMALE: forms(femaleSurnames.join(' '), german) },
  };
}

export const NATIONS: readonly Nation[] = [
  nation(
    'LV',
    'Jānis Andris Mārtiņš Edgars Kristaps Raimonds Aigars Ģirts Reinis Artūrs Dāvis Roberts',
    'Anna Līga Ilze Kristīne Inese Dace Elīza Laura Madara Zane Sanita Aļona',
    'Bērziņš/Bērziņa Kalniņš/Kalniņa Ozoliņš/Ozoliņa Jansons/Jansone Liepiņš/Liepiņa Krūmiņš/Krūmiņa ' +
      'Zariņš/Zariņa Pētersons/Pētersone Vītols/Vītola Kļaviņš/Kļaviņa Ābols/Ābola Eglītis/Eglīte Grīnbergs/Grīnberga',
  ),
  nation(
    'LT',
    'Jonas Tomas Lukas Mantas Dovydas Matas Žygimantas Paulius Arūnas Gintaras Vytautas',
    'Rūta Eglė Gabija Austėja Ugnė Kotryna Miglė Gintarė Jurgita Aušra Žaneta',
    'Kazlauskas/Kazlauskienė Jankauskas/Jankauskaitė Petrauskas/Petrauskienė Stankevičius/Stankevičiūtė ' +
      'Vasiliauskas/Vasiliauskienė Žukauskas/Žukauskaitė Butkus/Butkienė Paulauskas/Paulauskaitė Urbonas/Urbonienė ' +
      'Šimkus/Šimkutė Navickas/Navickienė',
  ),
  nation(
    'PL',
    'Jakub Kacper Mikołaj Szymon Łukasz Paweł Wojciech Michał Krzysztof Bartłomiej Jędrzej',
    'Zofia Małgorzata Agnieszka Łucja Magdalena Katarzyna Joanna Wiktoria Alicja Weronika Bożena',
    'Nowak Kowalski/Kowalska Wiśniewski/Wiśniewska Wójcik Kamiński/Kamińska Lewandowski/Lewandowska ' +
      'Zieliński/Zielińska Szymański/Szymańska Woźniak Dąbrowski/Dąbrowska Kozłowski/Kozłowska Jabłoński/Jabłońska Gołębiowski/Gołębiowska',
  ),
  nation(
    'CZ',
    'Jiří Jan Petr Tomáš Lukáš Ondřej Matěj Vojtěch Radek Štěpán Přemysl',
    'Tereza Kateřina Lucie Anežka Eliška Markéta Barbora Zuzana Šárka Jitka Věra',
    'Novák/Nováková Svoboda/Svobodová Novotný/Novotná Dvořák/Dvořáková Černý/Černá Procházka/Procházková ' +
      'Kučera/Kučerová Veselý/Veselá Horák/Horáková Němec/Němcová Růžička/Růžičková Šťastný/Šťastná',
  ),
  nation(
    'DE',
    'Lukas Jürgen Maximilian Jörg Felix Björn Niklas Tobias Sören Matthias Günter',
    'Sophie Lea Hannah Jana Bärbel Lena Anja Jördis Käthe Franziska Sünje',
    'Müller Schmidt Schneider Fischer Weiß Schäfer Köhler Groß Jäger Krüger Hoffmann Schröder Böhm',
    true,
  ),
  nation(
    'UA',
    'Олександр=Oleksandr Андрій=Andrii Дмитро=Dmytro Максим=Maksym Богдан=Bohdan Юрій=Yurii Тарас=Taras ' +
      'Євген=Yevhen Ігор=Ihor Святослав=Sviatoslav',
    'Олена=Olena Ірина=Iryna Наталія=Nataliia Юлія=Yuliia Анастасія=Anastasiia Софія=Sofiia Катерина=Kateryna ' +
      'Оксана=Oksana Ярослава=Yaroslava Христина=Khrystyna',
    'Шевченко=Shevchenko Коваленко=Kovalenko Бондаренко=Bondarenko Ткаченко=Tkachenko Мельник=Melnyk ' +
      'Олійник=Oliinyk Шевчук=Shevchuk Поліщук=Polishchuk Лисенко=Lysenko Бойко=Boiko ' +
      'Ковальов=Kovalov/Ковальова=Kovalova Соловйов=Soloviov/Соловйова=Soloviova Гнатюк=Hnatiuk',
  ),
  nation(
    'EE',
    'Märt Jüri Tõnu Rasmus Karl Siim Priit Andres Ülo',
    'Mari Kärt Liis Triin Eliise Kadri Maarja Ülle',
    'Tamm Saar Sepp Mägi Kask Kukk Rebane Ilves Pärn Koppel Õunapuu',
  ),
];
