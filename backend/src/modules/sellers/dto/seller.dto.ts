import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TextField } from '../../../common/validation.js';
import { SELLER_TEXTS, SELLER_TYPES, type SellerType, TRADE_RULES } from '../../../contracts/trust.js';

export class SellerDetailsRequest {
  @ApiProperty({ enum: SELLER_TYPES })
  @IsIn(SELLER_TYPES, { message: SELLER_TEXTS.chooseType })
  seller_type!: SellerType;

  @TextField(TRADE_RULES.business_name, { example: 'Levels Dairy Ltd' })
  business_name?: string;

  @TextField(TRADE_RULES.company_number, { example: '01234567' })
  company_number?: string;

  @TextField(TRADE_RULES.vat_number, { example: 'GB 999 9999 73' })
  vat_number?: string;
}

export class BusinessCheckResponse {
  @ApiProperty({ enum: ['pending', 'approved', 'declined'] })
  status!: 'pending' | 'approved' | 'declined';

  @ApiProperty({ type: String, nullable: true, description: 'Why our team declined' })
  decline_reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  requested_at!: string;
}

/** The signed-in seller's own details. */
export class SellerDetailsResponse {
  @ApiProperty({ enum: SELLER_TYPES, nullable: true, type: String, description: 'null until chosen (before the first listing)' })
  seller_type!: SellerType | null;

  @ApiProperty({ type: String, nullable: true })
  business_name!: string | null;

  @ApiProperty({ type: String, nullable: true })
  company_number!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'With GB' })
  vat_number!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When our team verified the business details' })
  business_verified_at!: string | null;

  @ApiProperty({ type: BusinessCheckResponse, nullable: true, description: 'The latest request for a business check' })
  business_check!: BusinessCheckResponse | null;
}
