/**
 * CSV import: an RFC 4180 reader and an importer that parses each field by the target schema's
 * type and streams the rows into a table through {@link io.sluice.storage.TableWriter}.
 *
 * <p>Null rule: an empty unquoted field is NULL; a quoted empty field ({@code ""}) is the empty
 * string. Depends on the block store only.
 */
package io.sluice.perf.csv;
