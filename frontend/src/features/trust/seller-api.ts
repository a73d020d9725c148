import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { settle, timeoutSignal, type ApiResult } from '../../lib/api-result';

export type SellerDetails = components['schemas']['SellerDetailsResponse'];
export type SellerDetailsChange = components['schemas']['SellerDetailsRequest'];

export const getSellerDetails = (): Promise<ApiResult<SellerDetails>> =>
  settle(api.GET('/api/profile/seller', { signal: timeoutSignal() }), 'Failed to load your seller details');

export const saveSellerDetails = (body: SellerDetailsChange): Promise<ApiResult<SellerDetails>> =>
  settle(api.PUT('/api/profile/seller', { body, signal: timeoutSignal() }), 'Failed to save your seller details');

export const askBusinessCheck = (): Promise<ApiResult<SellerDetails>> =>
  settle(api.POST('/api/profile/seller/business-check', { signal: timeoutSignal() }), 'Failed to send the request');
