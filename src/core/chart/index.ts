export { cellKey, type FitMap, type FitMapCell, fitMap } from "./fit-map.ts";
export {
  type ChartAdvisory,
  type ChartEstimate,
  type ChartRevision,
  historyMarkers,
  type Marker,
  memorySeries,
  revisionTimes,
  type Series,
  type SeriesPoint,
  sizeSeries,
} from "./history.ts";
export {
  type Box,
  DEFAULT_BOX,
  type LaidPoint,
  type LineLayout,
  layoutLineChart,
  markedPoints,
  niceTicks,
} from "./layout.ts";
