export { cellKey, fitMap } from "./fit-map.ts";
export {
  type ChartAdvisory,
  type ChartEstimate,
  type ChartRevision,
  historyMarkers,
  memorySeries,
  revisionTimes,
  type Series,
  sizeSeries,
} from "./history.ts";
export {
  type LineLayout,
  layoutLineChart,
  markedPoints,
} from "./layout.ts";
