import { Body, Controller, Get, HttpCode, Inject, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { CurrentUser, SignedIn } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import { SellerDetailsRequest, SellerDetailsResponse } from './dto/seller.dto.js';
import { SellersService } from './sellers.service.js';

/** The signed-in seller's type and trade details, and the request for a business check. */
@ApiTags('profile')
@Controller('profile/seller')
@SignedIn()
export class SellersController {
  constructor(@Inject(SellersService) private readonly sellers: SellersService) {}

  @Get()
  @ApiEnvelope(200, SellerDetailsResponse)
  details(@CurrentUser() user: User): Promise<SellerDetailsResponse> {
    return this.sellers.detailsOf(user.id);
  }

  @Put()
  @ApiEnvelope(200, SellerDetailsResponse)
  @ApiErrorEnvelope(400, 'A field is invalid (a trader needs a business name; company and VAT numbers are checked)')
  update(@CurrentUser() user: User, @Body() body: SellerDetailsRequest): Promise<SellerDetailsResponse> {
    return this.sellers.update(user.id, body);
  }

  @Post('business-check')
  @HttpCode(201)
  @ApiEnvelope(201, SellerDetailsResponse, { description: 'The request waits in the staff inbox' })
  @ApiErrorEnvelope(400, 'Not a trade seller with a business name')
  @ApiErrorEnvelope(409, 'Already verified, or a request is waiting')
  requestCheck(@CurrentUser() user: User): Promise<SellerDetailsResponse> {
    return this.sellers.requestCheck(user.id);
  }
}
