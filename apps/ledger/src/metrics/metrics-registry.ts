/**
 * A small Prometheus registry: counters with labels, and gauges read at scrape time.
 * Enough for /metrics without a dependency; rendered in the text exposition format 0.0.4.
 */
export type Labels = Record<string, string>;

type Sample = { labels: Labels; value: number };
type Read = () => number | undefined | Promise<number | undefined>;

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples(): Sample[] | Promise<Sample[]>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

const escapeLabelValue = (value: string): string => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (help: string): string => help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

const formatValue = (value: number): string =>
  Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : String(value);

const formatLabels = (labels: Labels): string => {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '' : `{${entries.map(([key, value]) => `${key}="${escapeLabelValue(value)}"`).join(',')}}`;
};

/** A monotonic count per label set. Label names are fixed when it is created. */
export class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  constructor(private readonly labelNames: readonly string[]) {}

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new RangeError(`a counter only goes up (got ${by})`);
    const ordered = this.ordered(labels);
    const key = JSON.stringify(ordered);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels: ordered, value: by });
  }

  get(labels: Labels = {}): number {
    return this.values.get(JSON.stringify(this.ordered(labels)))?.value ?? 0;
  }

  /** Only the declared label names, in declared order, so one label set is one series. */
  private ordered(labels: Labels): Labels {
    return Object.fromEntries(this.labelNames.map((name) => [name, labels[name] ?? '']));
  }

  samples(): Sample[] {
    return [...this.values.values()].map(({ labels, value }) => ({ labels: { ...labels }, value }));
  }
}

export class MetricsRegistry {
  private readonly families = new Map<string, Family>();

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const counter = new Counter(labelNames);
    this.register({ name, help, type: 'counter', samples: () => counter.samples() });
    return counter;
  }

  /** A counter kept by another component (its own labels), exposed under `name`. */
  counterOf(name: string, help: string, counter: Counter): void {
    this.register({ name, help, type: 'counter', samples: () => counter.samples() });
  }

  /** A counter whose value lives elsewhere (e.g. the store's own stats), read at each scrape. */
  counterFrom(name: string, help: string, read: Read): void {
    this.register({ name, help, type: 'counter', samples: async () => sampleOf(await read()) });
  }

  /** A value read at each scrape; `undefined` leaves the family without a sample. */
  gauge(name: string, help: string, read: Read): void {
    this.register({ name, help, type: 'gauge', samples: async () => sampleOf(await read()) });
  }

  /** The text exposition format: HELP, TYPE, then one line per sample. */
  async render(): Promise<string> {
    const lines: string[] = [];
    for (const family of this.families.values()) {
      lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
      for (const { labels, value } of await family.samples()) lines.push(`${family.name}${formatLabels(labels)} ${formatValue(value)}`);
    }
    return `${lines.join('\n')}\n`;
  }

  private register(family: Family): void {
    if (!NAME.test(family.name)) throw new TypeError(`invalid metric name ${family.name}`);
    if (this.families.has(family.name)) throw new Error(`metric ${family.name} is registered twice`);
    this.families.set(family.name, family);
  }
}

const sampleOf = (value: number | undefined): Sample[] => (value === undefined ? [] : [{ labels: {}, value }]);
