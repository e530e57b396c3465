/** The product version, as in package.json (a test keeps the two equal). */
export const heraldVersion = '0.1.0';
