import { describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import ipaddr from 'ipaddr.js';
import Koa from 'koa';
import { clientIp, forwardedClient, trustProxies } from './clientIp.ts';

describe('clientIp (the rate-limit key of an address)', () => {
  it('keys an IPv4 address by itself, also when it arrives IPv4-mapped', () => {
    expect(clientIp('203.0.113.7')).toBe('203.0.113.7');
    expect(clientIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientIp('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(clientIp('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientIp('203.0.113.8')).not.toBe(clientIp('203.0.113.7'));
  });

  it('keys a canonical IPv4 address as ipaddr.js reads it, and other spellings of it through ipaddr.js', () => {
    for (const address of ['0.0.0.0', '9.10.99.100', '199.200.249.250', '255.255.255.255', '10.0.0.1', '::ffff:127.0.0.1']) {
      expect(clientIp(address)).toBe(ipaddr.process(address).toString());
    }
    expect(clientIp('10.0.0.01')).toBe(ipaddr.process('10.0.0.01').toString());
    expect(clientIp('256.0.0.1')).toBe('256.0.0.1');
    expect(clientIp('1.2.3.4.5')).toBe('1.2.3.4.5');
  });

  it('keys every address of one IPv6 /64 alike, and another /64 apart', () => {
    const key = clientIp('2001:db8:0:7::1');
    expect(key).toBe('2001:db8:0:7::/64');
    for (const address of ['2001:db8:0:7:ffff:ffff:ffff:ffff', '2001:0db8:0000:0007:0000:0000:0000:0002', '2001:DB8:0:7:a::b']) {
      expect(clientIp(address)).toBe(key);
    }
    expect(clientIp('2001:db8:0:8::1')).toBe('2001:db8:0:8::/64');
    expect(clientIp('2001:db9:0:7::1')).not.toBe(key);
  });

  it('reads compressed forms, zone ids and the unspecified and loopback addresses', () => {
    expect(clientIp('::')).toBe('0:0:0:0::/64');
    expect(clientIp('::1')).toBe('0:0:0:0::/64');
    expect(clientIp('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientIp('fe80::2%25lo')).toBe(clientIp('fe80::1%eth0'));
    expect(clientIp('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keeps what is no address as its own key, bounded', () => {
    expect(clientIp('')).toBe('unknown');
    expect(clientIp('unknown-proxy-token')).toBe('unknown-proxy-token');
    expect(clientIp('[2001:db8::1]:443')).toBe('[2001:db8::1]:443');
    expect(clientIp('x'.repeat(500))).toHaveLength(64);
    expect(clientIp('2001:db8::1::2')).toBe('2001:db8::1::2');
  });
});

describe('forwardedClient (the client behind trusted proxies)', () => {
  it('takes the first trusted entry when it is an IP address, with a port some proxies add dropped', () => {
    expect(forwardedClient(['203.0.113.7'], '10.0.0.1')).toBe('203.0.113.7');
    expect(forwardedClient(['2001:db8::1', '198.51.100.2'], '10.0.0.1')).toBe('2001:db8::1');
    expect(forwardedClient(['203.0.113.7:51234'], '10.0.0.1')).toBe('203.0.113.7');
    expect(forwardedClient(['[2001:db8::1]:443'], '10.0.0.1')).toBe('2001:db8::1');
    expect(forwardedClient(['::ffff:203.0.113.7'], '10.0.0.1')).toBe('::ffff:203.0.113.7');
  });

  it('never keys a made-up entry: the nearest valid entry after it, else the socket address', () => {
    for (const made of ['unknown', 'x'.repeat(500), '_hidden', '256.0.0.1', '1.2.3.4.5', '2001:db8::1::2', '', 'a b', '1', '0x7f.1']) {
      expect(forwardedClient([made, '198.51.100.2'], '10.0.0.1'), made).toBe('198.51.100.2');
      expect(forwardedClient([made], '10.0.0.1'), made).toBe('10.0.0.1');
    }
    expect(forwardedClient([], '10.0.0.1')).toBe('10.0.0.1');
  });

  it('gives every made-up value one key, so values by the thousand are one budget', () => {
    const keys = new Set(Array.from({ length: 1000 }, (_, i) => clientIp(forwardedClient([`client-${i}`], '10.0.0.1'))));
    expect([...keys]).toEqual(['10.0.0.1']);
  });
});

describe('trustProxies (ctx.ip of a Koa app)', () => {
  const ipOf = (trusted: number, forwardedFor: string | undefined, socket = '10.0.0.1'): string => {
    const app = new Koa();
    trustProxies(app, trusted);
    const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
    const req = { headers, socket: { remoteAddress: socket } } as unknown as IncomingMessage;
    return app.createContext(req, {} as ServerResponse).ip;
  };

  it('ignores X-Forwarded-For with no trusted proxy', () => {
    expect(ipOf(0, '203.0.113.7')).toBe('10.0.0.1');
  });

  it('takes the address the outermost trusted proxy saw, and falls back past an entry that is no address', () => {
    expect(ipOf(1, 'spoofed, 203.0.113.7')).toBe('203.0.113.7');
    expect(ipOf(2, 'spoofed, 203.0.113.7, 198.51.100.2')).toBe('203.0.113.7');
    expect(ipOf(1, 'unknown')).toBe('10.0.0.1');
    expect(ipOf(2, 'unknown, 198.51.100.2')).toBe('198.51.100.2');
    expect(ipOf(2, 'garbage')).toBe('10.0.0.1');
    expect(ipOf(1, undefined)).toBe('10.0.0.1');
  });
});
