import { describe, expect, it } from 'vitest';
import { createHostCheck } from './host.ts';

describe('host check', () => {
  it('should answer each host by the rule, whatever host was checked before', () => {
    const allowed = createHostCheck(['app.example', '.team.example']);
    const hosts: [string | undefined, boolean][] = [
      ['localhost:3000', true],
      ['evil.example', false],
      ['evil.example', false],
      ['app.example', true],
      ['app.example', true],
      [undefined, false],
      ['a.team.example:443', true],
      ['127.0.0.1:8080', true],
      ['[::1]:8080', true],
      ['app.example.evil', false],
      ['', false],
    ];
    for (let turn = 0; turn < 2; turn++)
      for (const [host, answer] of hosts) expect([host, allowed(host)]).toEqual([host, answer]);
  });

  it('should accept every host when told `*`', () => {
    const any = createHostCheck(['*']);
    expect([any('evil.example'), any(undefined)]).toEqual([true, true]);
  });
});
