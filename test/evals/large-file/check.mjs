import { expect, load, original, read } from "../checks.mjs";

const before = original("src/catalog.js");
const after = read("src/catalog.js");
expect(
  after === before.replace("    const TAX_RATE = 0.2; // VAT", "    const TAX_RATE = 0.21; // VAT"),
  "src/catalog.js is not the original with only the VAT rate changed",
);
const catalog = load("src/catalog.js");
expect(catalog.priceWithTax({ price: 100 }) === 121, "priceWithTax({ price: 100 }) is not 121");
expect(catalog.shippingFor({ price: 100 }, true) === 15, "shippingFor changed");
