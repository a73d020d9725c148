import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { settle, timeoutSignal, type ApiResult } from '../../lib/api-result';

type Schemas = components['schemas'];
export type Profile = Schemas['ProfileResponse'];
export type PrivacySettings = Schemas['PrivacySettings'];
export type SessionInfo = Schemas['SessionInfo'];
export type TwoFactorSetup = Schemas['TwoFactorSetupResponse'];
type Message = Schemas['MessageResponse'];

const signal = timeoutSignal;

export const getProfile = (): Promise<ApiResult<Profile>> =>
  settle(api.GET('/api/profile', { signal: signal() }), 'Failed to fetch profile');

export const updateProfile = (body: Schemas['ProfileUpdateRequest']): Promise<ApiResult<Profile>> =>
  settle(api.PUT('/api/profile', { body, signal: signal() }), 'Failed to update profile');

export const updatePrivacy = (privacy_settings: PrivacySettings): Promise<ApiResult<PrivacySettings>> =>
  settle(api.PUT('/api/profile/privacy', { body: { privacy_settings }, signal: signal() }), 'Failed to update privacy settings');

export const changePassword = (body: Schemas['PasswordChangeRequest']): Promise<ApiResult<Message>> =>
  settle(api.PUT('/api/profile/password', { body, signal: signal() }), 'Failed to change password');

export const resendConfirmation = (): Promise<ApiResult<Message>> =>
  settle(api.POST('/api/auth/verify-email/resend', { signal: signal() }), 'Failed to send the confirmation link');

export const twoFactorStatus = (): Promise<ApiResult<Schemas['TwoFactorStatusResponse']>> =>
  settle(api.GET('/api/profile/two-factor', { signal: signal() }), 'Failed to load two-factor status');

export const setupTwoFactor = (): Promise<ApiResult<TwoFactorSetup>> =>
  settle(api.POST('/api/profile/two-factor/setup', { signal: signal() }), 'Failed to setup 2FA');

export const verifyTwoFactor = (token: string): Promise<ApiResult<Schemas['RecoveryCodesResponse']>> =>
  settle(api.POST('/api/profile/two-factor/verify', { body: { token }, signal: signal() }), 'Invalid verification code');

export const disableTwoFactor = (body: Schemas['TwoFactorAnswerRequest']): Promise<ApiResult<Message>> =>
  settle(api.POST('/api/profile/two-factor/disable', { body, signal: signal() }), 'Failed to disable 2FA');

export const listSessions = (): Promise<ApiResult<SessionInfo[]>> =>
  settle(api.GET('/api/auth/sessions', { signal: signal() }), 'Failed to load your sessions');

export const endOtherSessions = (): Promise<ApiResult<Message>> =>
  settle(api.DELETE('/api/auth/sessions/others', { signal: signal() }), 'Failed to sign out other sessions');

export const endSession = (id: string): Promise<ApiResult<Message>> =>
  settle(api.DELETE('/api/auth/sessions/{id}', { params: { path: { id } }, signal: signal() }), 'Failed to sign out that session');

export const exportData = (): Promise<ApiResult<Record<string, unknown>>> =>
  settle(api.GET('/api/profile/export', { signal: signal() }), 'Failed to export data');

export const deleteAccount = (password: string | undefined): Promise<ApiResult<Message>> =>
  settle(api.DELETE('/api/profile', { body: password ? { password } : {}, signal: signal() }), 'Failed to delete account');
