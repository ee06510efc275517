/** `GET /metrics` for tests, parsed from the Prometheus text exposition format. */
import http from 'node:http';

export interface Sample {
  /** Sample name (for histograms: `<family>_bucket`, `_sum`, `_count`). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  type: string;
  samples: Sample[];
}

export interface Scrape {
  families: Map<string, MetricFamily>;
  /** Sum of the samples named `sampleName` whose labels include `labels`. */
  value(sampleName: string, labels?: Record<string, string>): number;
  raw: string;
}

export function fetchText(url: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type']), body }));
    }).on('error', reject);
  });
}

export async function scrapeMetrics(metricsPort: number): Promise<Scrape> {
  const { status, body } = await fetchText(`http://127.0.0.1:${metricsPort}/metrics`);
  if (status !== 200) throw new Error(`GET /metrics answered ${status}`);
  return parseExposition(body);
}

export function parseExposition(text: string): Scrape {
  const families = new Map<string, MetricFamily>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice('# TYPE '.length).split(' ');
      families.set(name!, { type: type!, samples: [] });
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const sample = parseSample(line);
    samples.push(sample);
    const family = families.get(sample.name) ?? families.get(sample.name.replace(/_(bucket|sum|count)$/, ''));
    family?.samples.push(sample);
  }
  return {
    families,
    raw: text,
    value(sampleName, labels = {}) {
      return samples
        .filter((s) => s.name === sampleName && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0);
    },
  };
}

function parseSample(line: string): Sample {
  const brace = line.indexOf('{');
  const space = line.lastIndexOf(' ');
  if (brace < 0 || brace > space) return { name: line.slice(0, space), labels: {}, value: Number(line.slice(space + 1)) };
  const close = line.lastIndexOf('}');
  const labels: Record<string, string> = {};
  for (const match of line.slice(brace + 1, close).matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
    labels[match[1]!] = match[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return { name: line.slice(0, brace), labels, value: Number(line.slice(close + 2)) };
}
