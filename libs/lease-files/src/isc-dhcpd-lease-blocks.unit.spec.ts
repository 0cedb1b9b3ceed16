import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseIscLeases } from './isc-dhcpd-parser';
import { toObservation } from './lease-record';
import { leaseFileText as file, onlyRecord as only } from './testing/isc-lease-text';

describe('dhcpd.leases: reading the blocks dhcpd 4 writes', () => {
  it('reads a lease block as dhcpd 4 writes it, stepping over uid, set and on blocks', () => {
    const record = only(
      file(
        '# The format of this file is documented in the dhcpd.leases(5) manual page.',
        '# This lease file was written by isc-dhcp-4.4.3',
        '',
        'authoring-byte-order little-endian;',
        'server-duid "\\000\\001\\000\\001%>\\347\\000\\000\\026>\\336\\233\\260";',
        '',
        'lease 172.17.1.4 {',
        '  starts 0 2019/10/20 09:58:13;',
        '  ends 0 2019/10/20 10:03:13;',
        '  cltt 0 2019/10/20 09:58:13;',
        '  binding state active;',
        '  next binding state free;',
        '  rewind binding state free;',
        '  hardware ethernet 00:16:3e:EF:a9:c1;',
        '  uid "\\001\\000\\026>\\357\\251\\301";',
        '  set vendor-class-identifier = "MSFT 5.0";',
        '  client-hostname "vxp_0";',
        '  on expiry or release {',
        '    set ddns-rev-name = "4.1.17.172.in-addr.arpa."; # a comment { with braces }',
        '    on commit { execute ("/bin/true"); }',
        '  }',
        '}',
      ),
    );
    assert.deepEqual(toObservation(record), {
      ip: '172.17.1.4',
      mac: '00:16:3e:ef:a9:c1',
      state: 'active',
      starts: '2019-10-20T09:58:13.000Z',
      ends: '2019-10-20T10:03:13.000Z',
      hostname: 'vxp_0',
    });
    assert.deepEqual(record.origin, { line: 7 });
  });

  it('takes the binding state, never the next binding state', () => {
    const record = only(file('lease 10.0.0.9 {', '  next binding state active;', '  binding state released;', '  hardware ethernet 52:54:00:00:00:09;', '}'));
    assert.equal(record.state, 'released');
  });

  it('knows every binding state dhcpd writes', () => {
    const states = {
      active: 'active',
      free: 'free',
      expired: 'expired',
      released: 'released',
      abandoned: 'abandoned',
      backup: 'backup',
      reset: 'free',
      reserved: 'active',
      bootp: 'active',
    };
    for (const [name, state] of Object.entries(states)) {
      assert.equal(only(file('lease 10.0.0.1 {', `  binding state ${name};`, '  hardware ethernet 52:54:00:00:00:01;', '}')).state, state, name);
    }
  });

  it('reads epoch dates with their human comment, never, and UTC dates with an offset', () => {
    const epoch = only(
      file(
        'lease 10.0.0.2 {',
        '  starts epoch 1714550400; # Wed May 01 08:00:00 2024',
        '  ends never;',
        '  binding state active;',
        '  hardware ethernet 52:54:00:00:00:02;',
        '}',
      ),
    );
    assert.equal(epoch.starts, '2024-05-01T08:00:00.000Z');
    assert.equal(epoch.ends, null, 'never ends');
    const offset = only(
      file('lease 10.0.0.3 {', '  starts 3 2024/05/01 08:00:00 -3600;', '  binding state active;', '  hardware ethernet 52:54:00:00:00:03;', '}'),
    );
    assert.equal(offset.starts, '2024-05-01T07:00:00.000Z');
  });

  it('steps over failover state, host and group declarations', () => {
    const reading = parseIscLeases(
      file(
        'failover peer "dhcp-failover" state {',
        '  my state normal at 4 2024/05/02 08:00:00;',
        '  partner state normal at 4 2024/05/02 08:00:01;',
        '  mclt 3600;',
        '}',
        'host static-1 {',
        '  dynamic;',
        '  hardware ethernet 52:54:00:00:00:99;',
        '  fixed-address 10.0.0.99;',
        '  group "lab";',
        '}',
        'group lab { dynamic; }',
      ),
    );
    assert.deepEqual(reading, { records: [], entries: 0, superseded: 0, problems: [], ignored: {} });
  });
});
