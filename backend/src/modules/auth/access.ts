import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { refuseCookieCallWithoutClientHeader } from '../../common/csrf.js';
import { ACCOUNT_TEXTS } from '../../contracts/account.js';
import { STAFF_TEXTS } from '../../contracts/staff.js';
import type { User } from '../users/user.entity.js';
import { type Authenticated, SESSION_COOKIE, Sessions } from './sessions.service.js';

/** What a route asks of its caller; routes without one are open to everyone. */
export type Requirement = 'signed-in' | 'verified-email' | 'staff';
const REQUIREMENT = 'fieldmarket:requirement';

/** The requirement of a route: its handler's, else its controller's (read by the guard and by the API contract). */
export function requirementOf(reflector: Reflector, handler: object, controller: object): Requirement | undefined {
  return reflector.getAllAndOverride<Requirement | undefined>(REQUIREMENT, [handler as () => void, controller as () => void]);
}

/** The route needs a session (401 otherwise, which the browser answers with one refresh, then signs out). */
export const SignedIn = () => SetMetadata(REQUIREMENT, 'signed-in' satisfies Requirement);

const SIGN_IN_TEXT = 'fieldmarket:sign-in-text';

/** What a visitor is told on a route of this controller or handler (e.g. 'Please sign in to send messages.'). */
export const SignInText = (text: string) => SetMetadata(SIGN_IN_TEXT, text);

/** The route needs a session whose account has confirmed its e-mail address (posting, messaging). */
export const VerifiedEmail = () => SetMetadata(REQUIREMENT, 'verified-email' satisfies Requirement);

/**
 * The route is for staff: an account with the staff role (granted only by `./fieldmarket staff
 * grant`) that has two-factor sign-in turned on, from a session that itself passed the second
 * factor (the code at sign-in, or the code that turned it on there). Anyone else gets a 403
 * saying which is missing.
 */
export const Staff = () => SetMetadata(REQUIREMENT, 'staff' satisfies Requirement);

export interface AuthenticatedRequest extends FastifyRequest {
  auth?: Authenticated | null;
}

/** The signed-in user of a route marked @SignedIn() or @VerifiedEmail(). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): User => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new UnauthorizedException(ACCOUNT_TEXTS.signInRequired); // a route forgot @SignedIn()
  return auth.user;
});

/** The session of a route marked @SignedIn() (e.g. to tell the current one among the user's sessions). */
export const CurrentSession = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new UnauthorizedException(ACCOUNT_TEXTS.signInRequired);
  return auth.session;
});

/**
 * Runs before every route: finds the session of the cookie (if any), refuses a state-changing call
 * that carries the cookie but not the X-Requested-With header the site's pages send (a form or
 * image on another site cannot add a header, and a script there cannot without CORS consent: with
 * the Origin check, this stops cross-site request forgery), then applies the route's requirement.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    @Inject(Sessions) private readonly sessions: Sessions,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  /** Each route's requirement (by controller, then handler), read from its decorators once. */
  private readonly requirements = new WeakMap<object, WeakMap<object, Requirement | null>>();

  /** Synchronous unless a session must be looked up: a visitor's call to an open route costs no promise. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = request.cookies?.[SESSION_COOKIE];
    refuseCookieCallWithoutClientHeader(request, Boolean(token));
    if (request.auth == null && token) {
      return this.sessions.resolve(token).then((auth) => {
        request.auth = auth;
        return this.meetsRequirement(context, request, token);
      });
    }
    request.auth ??= null;
    return this.meetsRequirement(context, request, token);
  }

  private meetsRequirement(context: ExecutionContext, request: AuthenticatedRequest, token: string | undefined): boolean {
    const [handler, controller] = [context.getHandler(), context.getClass()];
    let byHandler = this.requirements.get(controller);
    if (byHandler === undefined) this.requirements.set(controller, (byHandler = new WeakMap()));
    let requirement = byHandler.get(handler);
    if (requirement === undefined) {
      requirement = requirementOf(this.reflector, handler, controller) ?? null;
      byHandler.set(handler, requirement);
    }
    if (!requirement) return true;
    if (!request.auth) {
      const signInText = this.reflector.getAllAndOverride<string | undefined>(SIGN_IN_TEXT, [handler, controller]);
      throw new UnauthorizedException(token ? ACCOUNT_TEXTS.sessionExpired : (signInText ?? ACCOUNT_TEXTS.signInRequired));
    }
    if (requirement === 'verified-email' && !request.auth.user.emailVerifiedAt)
      throw new ForbiddenException(ACCOUNT_TEXTS.verifyEmailFirst);
    if (requirement === 'staff') {
      if (request.auth.user.role !== 'staff') throw new ForbiddenException(STAFF_TEXTS.staffOnly);
      if (!request.auth.user.twoFactorEnabledAt) throw new ForbiddenException(STAFF_TEXTS.twoFactorNeeded);
      if (!request.auth.session.secondFactorAt) throw new ForbiddenException(STAFF_TEXTS.secondFactorNeeded);
    }
    return true;
  }
}
