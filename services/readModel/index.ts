export * from './documents.ts';
export { resolveRegistrationState, type RegistrationInput } from './registrationState.ts';
export { classifyPeriod, periodFilter } from './period.ts';
export { escapeRegExp, foldSearchText, searchedDescription, searchQuery, searchTokens, transliterate } from './searchText.ts';
export { approvedSortKeys, canonicalInstant, countryFilterKeys, countryIdKey, countryKeys, nameKey, personNameKey } from './sortKeys.ts';
