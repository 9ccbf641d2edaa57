/** Parameters removed within v1, with the explanation their 400 detail carries. */
export const REMOVED_PARAMETERS: Readonly<Record<string, string>> = {
  cityId: 'unknown parameter (removed; use city)',
  regionId: 'unknown parameter (removed; regions are no longer stored)',
};
