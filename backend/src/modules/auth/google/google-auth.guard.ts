import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AuthGuard, type AuthGuardAuthenticateOptions } from '@nestjs/passport';
import type { FastifyReply } from 'fastify';
import type { Profile } from 'passport-google-oauth20';
import { withTimeout } from '../../../common/timeout.js';
import type { GoogleFlow, StrategyRequest } from './google-state.js';
import { GoogleSignIn, type GoogleRequest } from './google-sign-in.service.js';
import { describeRefusal, type StrategyOutcome } from './google-strategy.js';

/** Longest wait for Google's token and userinfo endpoints. */
const GOOGLE_TIMEOUT_MS = 15_000;

/** What passport is handed as `req` and `res` for one run: a request it can read and a response that only reports. */
interface PassportRun {
  request: StrategyRequest;
  options: AuthGuardAuthenticateOptions;
  response: RedirectRecorder;
  outcome?: StrategyOutcome;
}

/**
 * passport's `res`: its strategy's redirect (the start, to Google) sets Location and ends the response.
 * Passport on Fastify would write the raw response, bypassing Fastify's cookies (the state cookie) and
 * leaving the guard's promise unsettled; this records the address and the route answers.
 */
class RedirectRecorder {
  statusCode = 200;
  private location: string | undefined;
  readonly ended: Promise<string>;
  private resolveEnded!: (location: string) => void;

  constructor() {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  setHeader(name: string, value: string): void {
    if (name.toLowerCase() === 'location') this.location = value;
  }

  end(): void {
    this.resolveEnded(this.location ?? '');
  }
}

/**
 * AuthGuard('google') on /api/auth/google and its callback. GoogleSignIn first decides whether
 * passport runs at all (not configured, rate limited, a callback without a code: it names the page
 * at once); then the strategy runs with the browser's state cookie and its outcome (a redirect to
 * Google, a profile with its flow, a refusal) is left on the request for the route. The guard never
 * refuses the request: both routes answer every outcome with a redirect, never an error page.
 */
@Injectable()
export class GoogleAuthGuard extends AuthGuard('google') {
  constructor(@Inject(GoogleSignIn) private readonly google: GoogleSignIn) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<GoogleRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    try {
      const step = await this.google.prepare(request, reply);
      if ('answer' in step) {
        request.googleStep = step;
        return true;
      }
      const run: PassportRun = { ...step, response: new RedirectRecorder() };
      request.passportRun = run;
      const redirected = run.response.ended.then((url): StrategyOutcome => ({ kind: 'redirect', url }));
      const handled = (super.canActivate(context) as Promise<boolean>).then(
        (): StrategyOutcome => run.outcome ?? { kind: 'error', reason: 'the strategy passed' },
      );
      request.googleStep = await withTimeout(
        Promise.race([redirected, handled]),
        GOOGLE_TIMEOUT_MS,
        `no answer from Google within ${GOOGLE_TIMEOUT_MS / 1000} s`,
      );
    } catch (error) {
      request.googleStep = { kind: 'error', reason: describeRefusal(error) };
    }
    return true;
  }

  override getRequest(context: ExecutionContext): StrategyRequest {
    return this.run(context).request;
  }

  getResponse(context: ExecutionContext): RedirectRecorder {
    return this.run(context).response;
  }

  override getAuthenticateOptions(context: ExecutionContext): AuthGuardAuthenticateOptions {
    return this.run(context).options;
  }

  /** Records the outcome instead of throwing: the route turns it into a page. */
  override handleRequest<TUser>(error: unknown, user: unknown, info: unknown, context: ExecutionContext): TUser {
    const run = this.run(context);
    if (error) run.outcome = { kind: 'error', reason: describeRefusal(error) };
    else if (!user) run.outcome = { kind: 'fail', reason: describeRefusal(info) };
    else {
      const flow = (info as { state?: GoogleFlow } | undefined)?.state;
      run.outcome = flow
        ? { kind: 'success', profile: user as Profile, flow }
        : { kind: 'error', reason: 'signed in without a verified state' };
    }
    return null as TUser;
  }

  private run(context: ExecutionContext): PassportRun {
    const run = context.switchToHttp().getRequest<GoogleRequest>().passportRun;
    if (!run) throw new Error('passport ran outside GoogleAuthGuard.canActivate');
    return run as PassportRun;
  }
}
