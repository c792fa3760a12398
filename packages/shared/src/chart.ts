// The price chart's resolutions: a plain module (the token page's chart reads them; the public
// history route's schema in schemas/market.ts builds on them).

/** The chart's resolutions: the UDF code and its length in seconds. */
export const CHART_RESOLUTIONS = [
  { code: '1', label: '1m', seconds: 60 },
  { code: '5', label: '5m', seconds: 300 },
  { code: '15', label: '15m', seconds: 900 },
  { code: '60', label: '1h', seconds: 3_600 },
  { code: '240', label: '4h', seconds: 14_400 },
  { code: '1D', label: '1d', seconds: 86_400 },
] as const;
export type ChartResolution = (typeof CHART_RESOLUTIONS)[number]['code'];
