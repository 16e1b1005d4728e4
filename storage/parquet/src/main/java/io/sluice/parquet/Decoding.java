package io.sluice.parquet;

/** How a Parquet column's physical values become a Sluice vector's values. */
enum Decoding {
    /** INT32 values into an {@code int[]}: int32 and date columns. */
    INT32,
    /** INT32 values widened into a {@code long[]}: decimals of up to 9 digits stored as INT32. */
    INT32_AS_LONG,
    /** INT64 values into a {@code long[]}: int64 columns and decimals stored as INT64. */
    INT64,
    /** Big-endian two's-complement bytes into a {@code long[]}: decimals of up to 18 digits stored as bytes. */
    DECIMAL_BYTES,
    /** Big-endian two's-complement bytes into 128-bit integers: decimals of 19 to 38 digits. */
    DECIMAL128_BYTES,
    /** UTF-8 bytes into a string vector. */
    STRING
}
