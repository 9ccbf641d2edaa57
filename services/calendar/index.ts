export { addDays, assertTimeZone, calendarDay, endOfDay, startOfDay } from './calendar.ts';
