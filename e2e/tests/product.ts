import { test } from '@playwright/test';
import type { ProductInstance } from '../playwright.config.js';

/** The product instance the running test's project talks to (playwright.config.ts): its address, data folder and database port. */
export function productUnderTest(): ProductInstance {
  return test.info().project.metadata as ProductInstance;
}
