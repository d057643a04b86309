import { loadPricesConfig } from './prices.config';
import { bootError } from '../../testing/boot-error';

describe('boot errors never echo secrets of URL-valued settings', () => {
  it.each([
    ['PRICE_API_URL', 'ftp://user:s3cret@prices.example/v3/simple/price?key=s3cret'],
    ['PRICE_API_URL', 'https://prices.example/v3 /price?x_cg_pro_api_key=s3cret'],
    ['PRICE_API_URL', 'prices.example/v3/simple/price?key=s3cret'],
  ])('%s=%s never shows its path, query or credentials', (name, value) => {
    const message = bootError(() => loadPricesConfig({ [name]: value }));
    expect(message).toContain(`${name}=`);
    expect(message).not.toMatch(/s3cret|simple|user/);
  });
});
