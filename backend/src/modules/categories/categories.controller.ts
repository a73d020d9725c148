import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { CategoriesService } from './categories.service.js';
import { CategoryResponse } from './dto/category.response.js';

@ApiTags('categories')
@Controller('categories')
export class CategoriesController {
  constructor(@Inject(CategoriesService) private readonly categories: CategoriesService) {}

  @Get()
  @ApiEnvelope(200, CategoryResponse, { isArray: true })
  list(): Promise<CategoryResponse[]> {
    return this.categories.list();
  }

  @Get(':id')
  @ApiEnvelope(200, CategoryResponse)
  @ApiErrorEnvelope(404, 'Category not found')
  get(@Param('id') id: string): Promise<CategoryResponse> {
    return this.categories.get(id);
  }
}
