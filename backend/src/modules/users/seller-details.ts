import { FieldValidationException } from '../../common/errors.js';
import { compactTradeNumber, SELLER_TEXTS, type SellerType } from '../../contracts/trust.js';
import type { User } from './user.entity.js';

/**
 * Applies a seller's chosen type and trade details to their account (the profile's Seller details, or
 * the first listing's choice). A trader needs a business name; a private seller keeps no trade details.
 */
export function setSellerDetails(
  user: User,
  request: { seller_type: SellerType; business_name?: string; company_number?: string; vat_number?: string },
): void {
  if (request.seller_type === 'trade' && !request.business_name) {
    throw new FieldValidationException({ business_name: SELLER_TEXTS.businessNameRequired });
  }
  const trade = request.seller_type === 'trade';
  const next = {
    sellerType: request.seller_type,
    businessName: trade ? request.business_name! : null,
    companyNumber: trade && request.company_number ? compactTradeNumber(request.company_number) : null,
    vatNumber: trade && request.vat_number ? compactTradeNumber(request.vat_number) : null,
  };
  const changed =
    next.sellerType !== user.sellerType ||
    next.businessName !== (user.businessName ?? null) ||
    next.companyNumber !== (user.companyNumber ?? null) ||
    next.vatNumber !== (user.vatNumber ?? null);
  Object.assign(user, next);
  if (changed) user.businessVerifiedAt = null;
}
