import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseIscLeases } from './isc-dhcpd-parser';
import { toObservation } from './lease-record';
import { leaseFileText as file, onlyRecord as only } from './testing/isc-lease-text';

describe('dhcpd.leases: reading the ia-na, ia-ta and ia-pd blocks dhcpd -6 writes', () => {
  it('reads dhcpd -6 ia-na blocks: every iaaddr is a lease, the MAC comes from the DUID', () => {
    const reading = parseIscLeases(
      file(
        'server-duid "\\000\\001\\000\\001\\036\\325\\2237\\000\\014)\\350\\361\\025";',
        'ia-na "\\001\\000\\000\\000\\000\\003\\000\\001RT\\000\\253\\315\\357" {',
        '  cltt 3 2024/05/01 08:00:00;',
        '  iaaddr 2001:DB8:0:0::1:5 {',
        '    binding state active;',
        '    preferred-life 375;',
        '    max-life 600;',
        '    ends epoch 1714551000; # Wed May 01 08:10:00 2024',
        '    set ddns-fwd-name = "host.example.";',
        '  }',
        '  iaaddr 2001:db8::1:6 {',
        '    binding state expired;',
        '    ends 3 2024/05/01 07:00:00;',
        '  }',
        '}',
        'ia-pd "\\001\\000\\000\\000\\000\\003\\000\\001RT\\000\\253\\315\\357" {',
        '  iaprefix 2001:db8:1::/56 {',
        '    binding state active;',
        '  }',
        '}',
      ),
    );
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(reading.records.map(toObservation), [
      { ip: '2001:db8::1:5', mac: '52:54:00:ab:cd:ef', state: 'active', ends: '2024-05-01T08:10:00.000Z' },
      { ip: '2001:db8::1:6', mac: '52:54:00:ab:cd:ef', state: 'expired', ends: '2024-05-01T07:00:00.000Z' },
    ]);
    assert.deepEqual(reading.ignored, { 'DHCPv6 prefix delegation (ia-pd)': 1 });
  });

  it('reads an IAID and DUID written as a hex list too', () => {
    const record = only(file('ia-ta 01:00:00:00:00:01:00:01:2c:7e:3a:10:52:54:00:ab:cd:01 {', '  iaaddr fe80::1 {', '    binding state active;', '  }', '}'));
    assert.equal(record.mac, '52:54:00:ab:cd:01');
  });
});
