import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IscLeaseStream } from './isc-lease-stream';
import { toObservation, type LeaseFileProblem, type LeaseRecord, type LeaseSink } from './lease-record';

const NOW = '2026-12-06T12:00:00.000Z';

class Collected implements LeaseSink {
  records: LeaseRecord[] = [];
  problems: LeaseFileProblem[] = [];
  record(record: LeaseRecord): void {
    this.records.push(record);
  }
  problem(problem: LeaseFileProblem): void {
    this.problems.push(problem);
  }
  ignore(): void {}
}

const HEADER = [
  '# The format of this file is documented in the dhcpd.leases(5) manual page.',
  '# This lease file was written by isc-dhcp-4.4.3',
  '',
  'authoring-byte-order little-endian;',
  '',
  'server-duid "\\000\\001\\000\\001%>\\347\\000\\000\\026>\\336\\233\\260";',
  '',
].join('\n');

const FAILOVER = [
  'failover peer "dhcp-failover" state {',
  '  my state normal at 1 2026/12/07 09:00:00;',
  '  partner state normal at 1 2026/12/07 09:00:00;',
  '}',
  '',
].join('\n');

const HOST = ['host fixed-1 {', '  dynamic;', '  hardware ethernet 02:00:00:00:00:aa;', '  fixed-address 10.9.0.250;', '}', ''].join('\n');

const lease = (n: number, hostname: string, state: string) =>
  [
    `lease 10.9.0.${n} {`,
    '  starts 0 2026/12/06 11:00:00;',
    '  ends 0 2026/12/06 13:00:00;',
    '  cltt 0 2026/12/06 11:00:00;',
    `  binding state ${state};`,
    '  next binding state free;',
    `  hardware ethernet 02:00:00:00:00:${n.toString(16).padStart(2, '0')};`,
    '  uid "\\001\\002\\000\\000\\000\\000;{";',
    `  set vendor-class-identifier = "udhcp 1.36.1 } ; # not a comment";`,
    `  client-hostname ${JSON.stringify(hostname)}; # a comment } {`,
    '}',
    '',
  ].join('\n');

const readAll = (bytes: Buffer, chunks: number[] = []) => {
  const sink = new Collected();
  const stream = new IscLeaseStream(sink, { now: NOW, offset: 0 });
  let at = 0;
  for (const cut of [...chunks].sort((a, b) => a - b)) {
    stream.push(bytes.subarray(at, cut));
    at = cut;
  }
  stream.push(bytes.subarray(at));
  return { sink, offset: stream.offset };
};

const seen = (records: LeaseRecord[]) => records.map(toObservation);

const hostnames = fc.string({ unit: fc.constantFrom('a', 'b', '-', '{', '}', ';', '#', ' ', 'é'), maxLength: 12 });
const files = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 254 }), hostnames, fc.constantFrom('active', 'free', 'released', 'expired')), { minLength: 1, maxLength: 8 })
  .chain((leases) =>
    fc.tuple(fc.constant(leases), fc.boolean(), fc.boolean()).map(([list, failover, host]) => {
      const body = list.map(([n, name, state]) => lease(n, name, state));
      if (failover) body.splice(1, 0, FAILOVER);
      if (host) body.push(HOST);
      return Buffer.from(HEADER + body.join(''), 'utf8');
    }),
  );

describe('dhcpd.leases as a stream with a safe offset', () => {
  it('reads every block of a file, and stops past the last one', () => {
    const bytes = Buffer.from(HEADER + lease(4, 'web {1}; x', 'active') + FAILOVER + HOST + lease(5, '', 'free'), 'utf8');
    const { sink, offset } = readAll(bytes);
    assert.deepEqual(sink.problems, []);
    assert.deepEqual(
      sink.records.map((r) => [r.ip, r.state, r.hostname]),
      [
        ['10.9.0.4', 'active', 'web {1}; x'],
        ['10.9.0.5', 'free', undefined],
      ],
    );
    assert.equal(offset, bytes.length);
  });

  it('holds back a block still being written: the offset stays before it, and a reader started there reads it once complete', () => {
    const first = HEADER + lease(4, 'a', 'active');
    const second = lease(5, 'b', 'active');
    const truncated = Buffer.from(first + second.slice(0, second.indexOf('binding')), 'utf8');
    const early = readAll(truncated);
    assert.deepEqual(
      seen(early.sink.records).map((r) => r.ip),
      ['10.9.0.4'],
    );
    assert.equal(early.offset, Buffer.byteLength(first));

    const whole = Buffer.from(first + second, 'utf8');
    const later = new Collected();
    const resumed = new IscLeaseStream(later, { now: NOW, offset: early.offset });
    resumed.push(whole.subarray(early.offset));
    assert.deepEqual(
      seen(later.records).map((r) => r.ip),
      ['10.9.0.5'],
    );
    assert.equal(resumed.offset, whole.length);
  });

  it('a line without its newline yet is not read: the closing brace alone does not complete a block', () => {
    const text = HEADER + lease(4, 'a', 'active');
    const { sink, offset } = readAll(Buffer.from(text.slice(0, -1), 'utf8'));
    assert.deepEqual(sink.records, []);
    assert.equal(offset, Buffer.byteLength(HEADER));
  });

  it('any cut of a valid file, read up to the cut and resumed at the offset, gives the same blocks as one read, each once', () => {
    fc.assert(
      fc.property(files, fc.nat(), (bytes, at) => {
        const cut = at % (bytes.length + 1);
        const whole = readAll(bytes);
        const before = new Collected();
        const first = new IscLeaseStream(before, { now: NOW, offset: 0 });
        first.push(bytes.subarray(0, cut));
        assert.ok(first.offset <= cut);
        const after = new Collected();
        const second = new IscLeaseStream(after, { now: NOW, offset: first.offset });
        second.push(bytes.subarray(first.offset));
        assert.deepEqual(seen([...before.records, ...after.records]), seen(whole.sink.records));
        assert.deepEqual([...before.problems, ...after.problems], []);
        assert.equal(second.offset, bytes.length);
        // The offset always lands just past a complete declaration (or at the start): a file cut there reads cleanly.
        assert.deepEqual(readAll(bytes.subarray(0, first.offset)).offset, first.offset);
      }),
      { numRuns: 300 },
    );
  });

  it('bytes handed in any number of chunks read the same as at once', () => {
    fc.assert(
      fc.property(files, fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
        const chunked = readAll(
          bytes,
          cuts.map((c) => c % (bytes.length + 1)),
        );
        const whole = readAll(bytes);
        assert.deepEqual(seen(chunked.sink.records), seen(whole.sink.records));
        assert.equal(chunked.offset, whole.offset);
      }),
      { numRuns: 300 },
    );
  });

  it('a follower that hands in the file from `consumed` at each look reads every block once, whatever it found the file cut at', () => {
    fc.assert(
      fc.property(files, fc.array(fc.nat(), { maxLength: 6 }), (bytes, looks) => {
        const sink = new Collected();
        const stream = new IscLeaseStream(sink, { now: NOW, offset: 0 });
        for (const size of [...looks.map((n) => n % (bytes.length + 1)), bytes.length].sort((a, b) => a - b)) {
          stream.push(bytes.subarray(stream.consumed, size));
        }
        assert.deepEqual(seen(sink.records), seen(readAll(bytes).sink.records));
        assert.deepEqual(sink.problems, []);
      }),
      { numRuns: 300 },
    );
  });

  it('a block a crash cut short is reported once the next declaration begins, and the offset moves on past that one', () => {
    const cut = lease(4, 'a', 'active').split('\n').slice(0, 5).join('\n') + '\n';
    const bytes = Buffer.from(HEADER + cut + lease(5, 'b', 'active'), 'utf8');
    const { sink, offset } = readAll(bytes);
    assert.deepEqual(
      sink.records.map((r) => r.ip),
      ['10.9.0.5'],
    );
    assert.equal(sink.problems.length, 1);
    assert.match(sink.problems[0].reason, /not closed/);
    assert.equal(offset, bytes.length);
  });
});
