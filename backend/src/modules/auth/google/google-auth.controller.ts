import { Controller, Get, Inject, Req, Res, UseGuards } from '@nestjs/common';
import { ApiProperty, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiEnvelope } from '../../../common/api-docs.js';
import { GoogleAuthGuard } from './google-auth.guard.js';
import { GoogleSignIn, type GoogleRequest } from './google-sign-in.service.js';

class AuthProvidersResponse {
  @ApiProperty({ description: 'Whether Google sign-in is configured on this server (the page shows its button, or says it is not)' })
  google!: boolean;
}

const redirectHeaders = { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } };

/**
 * Google sign-in's routes, behind AuthGuard('google') (GoogleAuthGuard). Both Google routes are browser navigations, not API calls: they answer
 * with a redirect (302), never with an error page; a problem sends the browser to /signin (or
 * /profile) with `?error=<code>` (GOOGLE_SIGN_IN_ERRORS in contracts/account.ts says what each means).
 */
@ApiTags('auth')
@Controller('auth')
export class GoogleAuthController {
  constructor(@Inject(GoogleSignIn) private readonly google: GoogleSignIn) {}

  @Get('providers')
  @ApiEnvelope(200, AuthProvidersResponse, { description: 'The ways to sign in besides a password' })
  providers(): AuthProvidersResponse {
    return { google: this.google.configured };
  }

  @Get('google')
  @ApiQuery({
    name: 'redirect',
    required: false,
    type: String,
    description: 'A path on this site to go to after signing in (else /browse)',
  })
  @ApiQuery({
    name: 'intent',
    required: false,
    enum: ['signin', 'reauth'],
    description: 'reauth: the signed-in Google account confirms it is its owner (before deleting the account)',
  })
  @ApiResponse({
    status: 302,
    headers: redirectHeaders,
    description: "To Google's sign-in (state cookie set), or to /signin?error=google-not-configured",
  })
  @UseGuards(GoogleAuthGuard)
  start(@Req() request: GoogleRequest, @Res() reply: FastifyReply): FastifyReply {
    return redirect(reply, this.google.started(request));
  }

  @Get('google/callback')
  @ApiResponse({
    status: 302,
    headers: redirectHeaders,
    description:
      'Signed in (session cookie), or two-factor awaited: to the route asked for at the start, else /browse. ' +
      'Re-authentication: to /profile?reauthenticated=1. Refused or failed: to /signin?error=<code> or /profile?error=<code>',
  })
  @UseGuards(GoogleAuthGuard)
  async callback(@Req() request: GoogleRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return redirect(reply, await this.google.finish(request, reply));
  }
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  // Cookies change here: no cache may keep this answer.
  return reply.header('cache-control', 'no-store').redirect(location, 302);
}
