/**
 * Parquet files as Sluice tables through the storage SPI: a {@link io.sluice.parquet.ParquetCatalog}
 * over a directory finds every {@code NAME.parquet} file and {@code NAME/} folder of Parquet files as
 * table {@code NAME}; a {@link io.sluice.parquet.ParquetTable} makes each row group a block (up to 8192
 * rows; a larger row group several blocks) whose zonemaps are the row group's column statistics, and
 * reads only the column chunks a scan asks for, value by value into column vectors.
 *
 * <p>Reads with parquet-java's column readers over {@code java.nio} files, without Hadoop: its
 * decompressors are this package's ({@link io.sluice.parquet.ParquetCodecs}). Depends on the format
 * module only, so that the embeddable core never pulls parquet-java.
 */
package io.sluice.parquet;
