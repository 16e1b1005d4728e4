package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Schema;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Errors in Sluice's words, each with its line and column: a first word that starts no statement
 * (with the query word it was meant to be),
 * unknown tables and columns with a "did you mean" from the store's names (an alias named by its
 * table), and none of Calcite's own vocabulary (LogicalValues, QualifyExpression, Object, "Encountered").
 */
class SqlErrorMessagesTest {
    @TempDir
    static Path dir;

    static StoreCatalog catalog;
    static SqlPlanner planner;

    @BeforeAll
    static void create() {
        final Store store = Store.create(dir.resolve("store"));
        write(store, "orders", "o_orderkey:int64,o_custkey:int64,o_comment:string");
        write(store, "customer", "c_custkey:int64,c_name:string");
        catalog = new StoreCatalog(store);
        planner = new SqlPlanner(catalog, store.tableNames());
    }

    private static void write(final Store store, final String table, final String schema) {
        try (TableWriter writer = store.write(TableSpec.of(table, Schema.parse(schema)))) {
            for (int c = 0; c < writer.schema().size(); c++) {
                if (writer.schema().type(c).toString().equals("string")) {
                    writer.column(c).appendString("x");
                } else {
                    writer.column(c).appendLong(1);
                }
            }
            writer.endRow();
            writer.finish().close();
        }
    }

    @AfterAll
    static void close() {
        catalog.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            selct 1                                            | SYNTAX      | 1 | 1  | 'selct' does not start a statement (did you mean SELECT?): Sluice runs queries, SELECT ... FROM ... or WITH ... SELECT
            \\n  wiht x as (select 1) select 1                  | SYNTAX      | 2 | 3  | 'wiht' does not start a statement (did you mean WITH?)
            frobnicate the tables                              | SYNTAX      | 1 | 1  | 'frobnicate' does not start a statement: Sluice runs queries
            select * from ordrs                                | VALIDATION  | 1 | 15 | table ordrs does not exist in the store (did you mean orders?); its tables are customer, orders
            select * from nothing_like_it                      | VALIDATION  | 1 | 15 | table nothing_like_it does not exist in the store; its tables are customer, orders
            select o_custky from orders                        | VALIDATION  | 1 | 8  | column o_custky does not exist in table orders (did you mean o_custkey?)
            select o.o_comnent from orders o                   | VALIDATION  | 1 | 10 | table orders (as o) has no column o_comnent (did you mean o_comment?)
            select * from orders o join customer c on o.o_custkey = c.c_custkey where c.c_nmae = 'x' | VALIDATION | 1 | 77 | table customer (as c) has no column c_nmae (did you mean c_name?)
            select zzz from orders, customer                   | VALIDATION  | 1 | 8  | column zzz does not exist in tables orders, customer
            select c_name, count(*) from customer              | VALIDATION  | 1 | 8  | c_name is neither in GROUP BY nor inside an aggregate: add it to GROUP BY, or aggregate it
            select o_orderkey from orders where o_orderkey = 1 and | SYNTAX  | 1 | 52 | unexpected "and" at the end of the statement
            select from orders                                 | SYNTAX      | 1 | 8  | unexpected "from
            """)
    void isExplainedAtItsPlace(final String sql, final SqlException.Kind kind, final int line, final int column,
                               final String detail) {
        assertThatThrownBy(() -> planner.plan(sql.replace("\\n", "\n")))
                .asInstanceOf(InstanceOfAssertFactories.type(SqlException.class))
                .satisfies(e -> {
                    assertThat(e.kind()).as(e.getMessage()).isEqualTo(kind);
                    assertThat(e.line()).as(e.getMessage()).isEqualTo(line);
                    assertThat(e.column()).as(e.getMessage()).isEqualTo(column);
                    assertThat(e.detail()).startsWith(detail);
                    assertThat(e.getMessage()).doesNotContain("Logical", "QualifyExpression", "Object '",
                            "Encountered", "Non-query");
                });
    }

    @Test
    void qualifyIsPlanned() {
        assertThat(planner.plan("select o_orderkey from orders qualify row_number() over (order by o_orderkey) = 1")
                .columns()).containsExactly("o_orderkey");
    }

    @Test
    void theSubqueryThatDoesWhatQualifyDoesRuns() {
        assertThat(planner.plan("select * from (select o_orderkey, row_number() over (order by o_orderkey) as rn"
                + " from orders) as w where rn = 1").columns()).containsExactly("o_orderkey", "rn");
    }

    @Test
    void aSuggestionIsOnlyMadeForACloseName() {
        assertThat(Spelling.closest("lineitm", List.of("orders", "lineitem"))).isEqualTo("lineitem");
        assertThat(Spelling.closest("wiht", List.of("SELECT", "WITH"))).isEqualTo("WITH");
        assertThat(Spelling.closest("x", List.of("k", "s"))).isNull();
        assertThat(Spelling.closest("o_comment", List.of("o_orderkey", "o_custkey"))).isNull();
        assertThat(Spelling.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(Spelling.distance("ab", "ba")).isEqualTo(1);
    }
}

