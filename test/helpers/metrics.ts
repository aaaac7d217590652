import type { RunningApp } from './app.js';

/**
 * A metric of the running app, summed over the values whose labels include `labels` (all of
 * them when none are given). Gauges are collected afresh on each read.
 */
export async function metricValue(
  run: Pick<RunningApp, 'services'>,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = (await run.services.metrics.registry.getMetricsAsJSON()).find(
    (candidate) => candidate.name === name,
  );
  return (metric?.values ?? [])
    .filter((value) =>
      Object.entries(labels).every(([key, expected]) => value.labels[key] === expected),
    )
    .reduce((sum, value) => sum + Number(value.value), 0);
}
