import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetricsRegistry } from './metrics-registry';

describe('MetricsRegistry', () => {
  it('renders counters per label set and gauges read at scrape time, in the text exposition format', async () => {
    const registry = new MetricsRegistry();
    const requests = registry.counter('http_requests_total', 'Requests.', ['route', 'status']);
    let head = 7;
    registry.gauge('head_position', 'Head.', () => head);
    registry.counterFrom('appends_total', 'Appends.', async () => 3);
    requests.inc({ route: '/v1/nodes', status: '201' });
    requests.inc({ status: '201', route: '/v1/nodes' }, 2);
    requests.inc({ route: '/v1/nodes', status: '400' });
    head = 9;
    assert.equal(
      await registry.render(),
      [
        '# HELP http_requests_total Requests.',
        '# TYPE http_requests_total counter',
        'http_requests_total{route="/v1/nodes",status="201"} 3',
        'http_requests_total{route="/v1/nodes",status="400"} 1',
        '# HELP head_position Head.',
        '# TYPE head_position gauge',
        'head_position 9',
        '# HELP appends_total Appends.',
        '# TYPE appends_total counter',
        'appends_total 3',
        '',
      ].join('\n'),
    );
  });

  it('escapes label values and ignores undeclared labels, so a hostile value cannot forge a series', async () => {
    const registry = new MetricsRegistry();
    const counter = registry.counter('c_total', 'C.', ['code']);
    counter.inc({ code: 'a"b\\c\nd', injected: 'x' });
    assert.equal(counter.get({ code: 'a"b\\c\nd' }), 1);
    assert.match(await registry.render(), /^c_total\{code="a\\"b\\\\c\\nd"\} 1$/m);
    assert.doesNotMatch(await registry.render(), /injected/);
  });

  it('leaves out a sample whose source has none, and refuses bad names, duplicates and decrements', async () => {
    const registry = new MetricsRegistry();
    registry.gauge('absent', 'Not there.', () => undefined);
    assert.equal(await registry.render(), '# HELP absent Not there.\n# TYPE absent gauge\n');
    assert.throws(() => registry.gauge('absent', 'Again.', () => 1), /registered twice/);
    assert.throws(() => registry.gauge('bad-name', 'Bad.', () => 1), /invalid metric name/);
    assert.throws(() => registry.counter('c_total', 'C.').inc({}, -1), /only goes up/);
  });
});
