import type { Country } from '../services/events/index.ts';

/** A country of the federation's region, with what an address there looks like. */
export interface Place {
  readonly country: NonNullable<Country>;
  /** Cities as a geocoder reports them in the language they were entered in. */
  readonly cities: readonly string[];
  readonly streets: readonly string[];
  readonly postalCode: (n: number) => string;
  /** Venue name patterns; `%` is replaced by a name word or the city. */
  readonly venues: readonly string[];
  readonly phonePrefix: string;
  readonly webDomain: string;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

// Country ids are the ISO 3166-1 numeric codes: stable, and plausible as internal ids.
export const PLACES: readonly Place[] = [
  {
    country: { id: 428, name: 'Latvia', code: 'LV' },
    cities: [
      'Rīga',
      'Daugavpils',
      'Liepāja',
      'Jelgava',
      'Jūrmala',
      'Ventspils',
      'Rēzekne',
      'Valmiera',
      'Jēkabpils',
      'Ogre',
      'Cēsis',
      'Sigulda',
    ],
    streets: [
      'Brīvības iela',
      'Krišjāņa Barona iela',
      'Elizabetes iela',
      'Ganību dambis',
      'Dzirnavu iela',
      'Rīgas iela',
      'Lielā iela',
      'Zemitāna iela',
      'Kuldīgas iela',
    ],
    postalCode: (n) => `LV-${1000 + (n % 9000)}`,
    venues: ['Sporta nams "%"', 'Arēna %', '% Olimpiskais centrs', 'Kultūras pils "%"'],
    phonePrefix: '+371 2',
    webDomain: 'lv',
  },
  {
    country: { id: 440, name: 'Lithuania', code: 'LT' },
    cities: ['Vilnius', 'Kaunas', 'Klaipėda', 'Šiauliai', 'Panevėžys', 'Alytus', 'Marijampolė', 'Utena', 'Palanga'],
    streets: ['Gedimino pr.', 'Laisvės al.', 'Vilniaus g.', 'Žalgirio g.', 'Savanorių pr.', 'Taikos pr.', 'Ąžuolyno g.', 'Šv. Stepono g.'],
    postalCode: (n) => `LT-${pad(n % 100_000, 5)}`,
    venues: ['% sporto rūmai', 'Arena "%"', '% kultūros centras', 'Sporto ir pramogų centras "%"'],
    phonePrefix: '+370 6',
    webDomain: 'lt',
  },
  {
    country: { id: 616, name: 'Poland', code: 'PL' },
    cities: ['Warszawa', 'Kraków', 'Łódź', 'Wrocław', 'Poznań', 'Gdańsk', 'Szczecin', 'Białystok', 'Toruń', 'Rzeszów', 'Elbląg'],
    streets: [
      'ul. Marszałkowska',
      'ul. Piotrkowska',
      'ul. Długa',
      'ul. Świętokrzyska',
      'al. Jerozolimskie',
      'ul. Żeromskiego',
      'ul. Kościuszki',
      'ul. Słowackiego',
    ],
    postalCode: (n) => `${pad(n % 100, 2)}-${pad(n % 1000, 3)}`,
    venues: ['Hala Sportowa "%"', 'Hala %', 'Arena %', 'Centrum Kultury "%"'],
    phonePrefix: '+48 5',
    webDomain: 'pl',
  },
  {
    country: { id: 203, name: 'Czechia', code: 'CZ' },
    cities: [
      'Praha',
      'Brno',
      'Ostrava',
      'Plzeň',
      'Liberec',
      'Olomouc',
      'České Budějovice',
      'Hradec Králové',
      'Ústí nad Labem',
      'Pardubice',
    ],
    streets: ['Vodičkova', 'Náměstí Míru', 'Masarykova', 'Palackého', 'Husova', 'Korunní', 'Dělnická', 'Štefánikova'],
    postalCode: (n) => `${100 + (n % 700)} ${pad(n % 100, 2)}`,
    venues: ['Sportovní hala %', 'Kongresové centrum %', 'Hala "%"', 'Kulturní dům %'],
    phonePrefix: '+420 6',
    webDomain: 'cz',
  },
  {
    country: { id: 276, name: 'Germany', code: 'DE' },
    cities: [
      'Berlin',
      'München',
      'Köln',
      'Düsseldorf',
      'Nürnberg',
      'Frankfurt am Main',
      'Hamburg',
      'Leipzig',
      'Dresden',
      'Würzburg',
      'Lübeck',
      'Göttingen',
    ],
    streets: ['Hauptstraße', 'Königsallee', 'Schloßstraße', 'Bahnhofstraße', 'Gartenstraße', 'Mühlenweg', 'Lindenallee', 'Friedrichstraße'],
    postalCode: (n) => pad(10_000 + (n % 89_999), 5),
    venues: ['Sporthalle %', 'Stadthalle %', 'Kongresshalle "%"', 'Kurhaus %'],
    phonePrefix: '+49 15',
    webDomain: 'de',
  },
  {
    country: { id: 804, name: 'Ukraine', code: 'UA' },
    // Entered in either spelling; the geocoder keeps whichever it was given.
    cities: ['Київ', 'Kyiv', 'Львів', 'Lviv', 'Харків', 'Одеса', 'Odesa', 'Дніпро', 'Вінниця', 'Запоріжжя', 'Черкаси'],
    streets: ['вулиця Хрещатик', 'проспект Свободи', 'вулиця Шевченка', 'vul. Sichovykh Striltsiv', 'prosp. Nauky', 'вулиця Грушевського'],
    postalCode: (n) => pad(n % 100_000, 5),
    venues: ['Палац спорту "%"', 'Палац культури "%"', 'Sports Palace %', 'Концерт-хол %'],
    phonePrefix: '+380 6',
    webDomain: 'ua',
  },
  {
    country: { id: 233, name: 'Estonia', code: 'EE' },
    cities: ['Tallinn', 'Tartu', 'Pärnu', 'Narva', 'Viljandi', 'Rakvere'],
    streets: ['Pärnu mnt', 'Narva mnt', 'Tartu mnt', 'Rüütli tn', 'Kalevi tn', 'Jõe tn'],
    postalCode: (n) => pad(10_000 + (n % 89_999), 5),
    venues: ['Saku Suurhall', '% Spordihoone', '% Kultuurikeskus', 'Kalevi Spordihall'],
    phonePrefix: '+372 5',
    webDomain: 'ee',
  },
];

/** Supplementary details a club adds in brackets after the geocoded address. */
export const ADDRESS_DETAILS = [
  '2nd floor',
  'entrance from the yard',
  'hall B',
  'studio 3',
  'ground floor, left wing',
  'gym of school No. 4',
];

/** Words for venue, club and competition names (Latin script, some with diacritics). */
export const NAME_WORDS = [
  'Dzintars',
  'Žuvėdra',
  'Amber',
  'Baltic Star',
  'Grün-Gold',
  'Blau-Weiß',
  'Kometa',
  'Gracja',
  'Zirka',
  'Elegance',
  'Rondo',
  'Fiesta',
  'Harmonie',
  'Vivat',
  'Aurora',
  'Jantar',
  'Polonez',
  'Tempo',
  'Capriccio',
  'Sonáta',
  'Astra',
  'Viktorija',
  'Rytmas',
  'Ritmo',
  'Lumière',
  'Orbita',
  'Dynamo',
];
