import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { BadRequestException, ConflictException, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SELLER_TEXTS } from '../../contracts/trust.js';
import { setSellerDetails } from '../users/seller-details.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { User } from '../users/user.entity.js';
import { BusinessVerification } from './business-verification.entity.js';
import type { SellerDetailsRequest, SellerDetailsResponse } from './dto/seller.dto.js';

/** A seller's type and trade details, and their requests for a business check (issue 23 §2). */
@Injectable()
export class SellersService implements OnModuleInit {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
  ) {}

  onModuleInit(): void {
    this.userData.addPart({
      name: 'business_checks',
      exportFor: async (userId) =>
        (await this.em.fork().find(BusinessVerification, { seller: userId }, { orderBy: { createdAt: 'asc' } })).map((v) => ({
          business_name: v.businessName,
          company_number: v.companyNumber ?? null,
          vat_number: v.vatNumber ?? null,
          status: v.status,
          decline_reason: v.declineReason ?? null,
          requested_at: v.createdAt.toISOString(),
        })),
    });
  }

  async detailsOf(userId: string): Promise<SellerDetailsResponse> {
    const em = this.em.fork();
    const user = await em.findOneOrFail(User, { id: userId });
    const check = await em.findOne(BusinessVerification, { seller: userId }, { orderBy: { createdAt: 'desc' } });
    return {
      seller_type: user.sellerType ?? null,
      business_name: user.businessName ?? null,
      company_number: user.companyNumber ?? null,
      vat_number: user.vatNumber ? `GB${user.vatNumber}` : null,
      business_verified_at: user.businessVerifiedAt?.toISOString() ?? null,
      business_check: check
        ? { status: check.status, decline_reason: check.declineReason ?? null, requested_at: check.createdAt.toISOString() }
        : null,
    };
  }

  /** Saves the details; a change to a verified trader's details takes the badge away until staff check again. */
  async update(userId: string, request: SellerDetailsRequest): Promise<SellerDetailsResponse> {
    await this.em.transactional(async (tx) => {
      const user = await tx.findOneOrFail(User, { id: userId });
      setSellerDetails(user, request);
    });
    return this.detailsOf(userId);
  }

  /** A trade seller asks staff to check their details: one request waiting at a time. */
  async requestCheck(userId: string): Promise<SellerDetailsResponse> {
    await this.em
      .fork()
      .transactional(async (tx) => {
        const user = await tx.findOneOrFail(User, { id: userId });
        if (user.sellerType !== 'trade' || !user.businessName) throw new BadRequestException(SELLER_TEXTS.verificationNeedsTrade);
        if (user.businessVerifiedAt) throw new ConflictException(SELLER_TEXTS.alreadyVerified);
        if (await tx.count(BusinessVerification, { seller: userId, status: 'pending' }))
          throw new ConflictException(SELLER_TEXTS.verificationWaiting);
        tx.persist(
          tx.create(BusinessVerification, {
            seller: userId,
            businessName: user.businessName,
            companyNumber: user.companyNumber ?? null,
            vatNumber: user.vatNumber ?? null,
          }),
        );
      })
      .catch((error: unknown) => {
        // Two sent at the same moment: the partial unique index lets one through.
        if (error instanceof UniqueConstraintViolationException) throw new ConflictException(SELLER_TEXTS.verificationWaiting);
        throw error;
      });
    return this.detailsOf(userId);
  }
}
