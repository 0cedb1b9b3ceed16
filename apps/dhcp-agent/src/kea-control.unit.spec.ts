import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeaControl, KeaControlError } from './kea-control';
import { KeaLeases, keaDeleteLease, keaLease } from './kea-leases';

/**
 * A unix socket server speaking like Kea's control channel (one JSON command, one answer,
 * then the connection closed), holding leases by address, so the client is tested over a
 * real socket: what it sends, how it reads the answer, and each result code.
 */
class FakeKeaSocket {
  readonly leases = new Map<string, string>();
  readonly received: unknown[] = [];
  /** How the next answer misbehaves, if at all. */
  misbehave: 'error' | 'garbage' | 'silent' | 'split' | null = null;
  private readonly server: Server;

  constructor(readonly path: string) {
    this.server = createServer((socket) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        try {
          this.answer(socket, JSON.parse(text) as { command: string; arguments?: { 'ip-address'?: string } });
        } catch {
          /* not whole yet */
        }
      });
    });
  }

  listen = () => new Promise<void>((resolve) => this.server.listen(this.path, resolve));
  close = () => new Promise<void>((resolve) => this.server.close(() => resolve()));

  private answer(socket: Socket, command: { command: string; arguments?: { 'ip-address'?: string } }): void {
    this.received.push(command);
    const ip = command.arguments?.['ip-address'] ?? '';
    const mac = this.leases.get(ip);
    const reply = (body: object) => {
      const text = JSON.stringify(body);
      if (this.misbehave === 'split') {
        socket.write(text.slice(0, 7));
        setTimeout(() => socket.end(text.slice(7)), 50);
      } else socket.end(text);
    };
    if (this.misbehave === 'silent') return;
    if (this.misbehave === 'garbage') return void socket.end('<html>nope');
    if (this.misbehave === 'error') return reply({ result: 1, text: 'unable to forward command to the dhcp4 service: No such file or directory.' });
    if (command.command === 'lease4-get')
      return reply(
        mac ? { result: 0, text: 'IPv4 lease found.', arguments: { 'ip-address': ip, 'hw-address': mac, state: 0 } } : { result: 3, text: 'Lease not found.' },
      );
    if (command.command === 'lease4-del') {
      if (!mac) return reply({ result: 3, text: 'IPv4 lease not found.' });
      this.leases.delete(ip);
      return reply({ result: 0, text: 'IPv4 lease deleted.' });
    }
    reply({ result: 2, text: `'${command.command}' command not supported.` });
  }
}

describe("Kea's control socket client", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kea-control-'));
  const kea = new FakeKeaSocket(join(dir, 'kea4.sock'));
  const control = new KeaControl(kea.path, 1_000);

  before(() => kea.listen());
  after(async () => {
    await kea.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks lease4-get by address and reads the MAC Kea holds it for, or nothing', async () => {
    kea.misbehave = null;
    kea.leases.set('10.96.14.34', '02:58:00:00:00:0A');
    assert.deepEqual(await keaLease(control, '10.96.14.34'), { mac: '02:58:00:00:00:0a' });
    assert.deepEqual(kea.received.at(-1), { command: 'lease4-get', arguments: { 'ip-address': '10.96.14.34' } });
    assert.equal(await keaLease(control, '10.96.14.35'), null);
  });

  it('deletes with lease4-del: true when deleted, false when Kea held nothing', async () => {
    kea.misbehave = null;
    kea.leases.set('10.96.14.36', '02:58:00:00:00:0b');
    assert.equal(await keaDeleteLease(control, '10.96.14.36'), true);
    assert.deepEqual(kea.received.at(-1), { command: 'lease4-del', arguments: { 'ip-address': '10.96.14.36' } });
    assert.equal(kea.leases.has('10.96.14.36'), false);
    assert.equal(await keaDeleteLease(control, '10.96.14.36'), false);
  });

  it("reclaims the family of the followed lease file, read from its header; another family's address is left to the other server", async () => {
    const v4 = join(dir, 'kea-leases4.csv');
    const v6 = join(dir, 'kea-leases6.csv');
    writeFileSync(v4, 'address,hwaddr,client_id,valid_lifetime,expire,subnet_id,fqdn_fwd,fqdn_rev,hostname,state,user_context\n');
    writeFileSync(v6, 'address,duid,valid_lifetime,expire,subnet_id,pref_lifetime,lease_type,iaid,prefix_len,fqdn_fwd,fqdn_rev,hostname,hwaddr,state\n');
    assert.deepEqual([new KeaLeases(control, v4).serves('10.96.14.40'), new KeaLeases(control, v4).serves('fd00:5eed::40')], [true, false]);
    assert.deepEqual([new KeaLeases(control, v6).serves('10.96.14.40'), new KeaLeases(control, v6).serves('fd00:5eed::40')], [false, true]);
    assert.throws(() => new KeaLeases(control, join(dir, 'none.csv')).serves('10.96.14.40'), /none\.csv does not exist yet/);
    writeFileSync(join(dir, 'dhcpd.leases'), 'lease 10.96.14.40 {\n}\n');
    assert.throws(
      () => new KeaLeases(control, join(dir, 'dhcpd.leases')).serves('10.96.14.40'),
      /has no Kea lease-file header: --reclaim works beside Kea's memfile only/,
    );
  });

  it('reads an answer that arrives in pieces', async () => {
    kea.misbehave = 'split';
    kea.leases.set('10.96.14.37', '02:58:00:00:00:0c');
    assert.deepEqual(await keaLease(control, '10.96.14.37'), { mac: '02:58:00:00:00:0c' });
  });

  it('an error answer, a non-JSON answer, silence or no socket at all: a clear error, nothing deleted', async () => {
    kea.leases.set('10.96.14.38', '02:58:00:00:00:0d');
    kea.misbehave = 'error';
    await assert.rejects(keaDeleteLease(control, '10.96.14.38'), /Kea refused lease4-del for 10\.96\.14\.38 \(result 1\): unable to forward/);
    kea.misbehave = 'garbage';
    await assert.rejects(
      keaLease(control, '10.96.14.38'),
      (error: Error) => error instanceof KeaControlError && /not JSON/.test(error.message) && !/html/.test(error.message),
    );
    kea.misbehave = 'silent';
    await assert.rejects(keaLease(control, '10.96.14.38'), /did not answer lease4-get within 1000 ms/);
    await assert.rejects(keaLease(new KeaControl(join(dir, 'missing.sock')), '10.96.14.38'), /cannot reach Kea's control socket .*missing\.sock \(ENOENT\)/);
    assert.equal(kea.leases.get('10.96.14.38'), '02:58:00:00:00:0d');
  });
});
