// The choices `evident eval convert` offers, apart from the converters, so the CLI names them in its help without
// loading a dataset reader.

/** Who may read a converted document: every question sees the whole corpus, or only its own documents. */
export type ConversionScope = 'question' | 'shared';

export const conversionScopes: readonly ConversionScope[] = ['question', 'shared'];

/** The settings the RGB converter offers: RGB's negative rejection, its noise-robustness accuracy, or both per question. */
export const rgbVariants = ['negative', 'positive', 'mixed'] as const;
export type RgbVariant = (typeof rgbVariants)[number];

/** How an UNDERSPECIFIED MTRAG turn is scored: answerable when it has reference contexts (default), always refused, or left out. */
export const underspecifiedPolicies = ['by-contexts', 'unanswerable', 'skip'] as const;
export type UnderspecifiedPolicy = (typeof underspecifiedPolicies)[number];
