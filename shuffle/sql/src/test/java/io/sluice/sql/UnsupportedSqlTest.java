package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statements Sluice cannot run fail with a {@link SqlException}
 * naming the kind, the line and column, and the construct. A syntax error points at the last
 * token read (the {@code and} a statement ends on); constructs found only after Calcite's
 * rewrites (a LIKE pattern's {@code _}) have no single place and say so with line 0.
 */
class UnsupportedSqlTest extends OverTestStore {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            insert into t values (1, 2.00, 'x')                   | UNSUPPORTED | 1 | 1  | insert statements are not supported
            delete from t where k = 1                             | UNSUPPORTED | 1 | 1  | delete statements are not supported
            update t set k = 2                                    | UNSUPPORTED | 1 | 1  | update statements are not supported
            -- a comment\\n  create table u (a int)              | UNSUPPORTED | 2 | 3  | create table statements are not supported
            drop table t                                          | UNSUPPORTED | 1 | 1  | drop statements are not supported
            select k from t intersect all select k from t         | UNSUPPORTED | 1 | 1  | INTERSECT ALL is not supported
            select k from t\\n  except all select k from t       | UNSUPPORTED | 1 | 1  | EXCEPT ALL is not supported
            select k,\\n  soundex(s) from t                       | UNSUPPORTED | 2 | 3  | the function soundex is not supported
            select k from t where\\n   ln(k) > 1                  | UNSUPPORTED | 2 | 4  | is not supported; Sluice evaluates
            select k, sum(k) over (order by v range 0.001 preceding) from t | UNSUPPORTED | 0 | 0 | the offset 0.001 is not a whole number of units of the ORDER BY key
            select k, count(distinct k) over (partition by s) from t | UNSUPPORTED | 0 | 0 | COUNT(DISTINCT ...) OVER (...) is not supported
            select k, ntile(2) over (order by k) from t          | UNSUPPORTED | 1 | 11 | the function ntile is not supported
            select nosuch from t                                  | VALIDATION  | 1 | 8  | column nosuch does not exist in table t
            select k from\\n nowhere                              | VALIDATION  | 2 | 2  | table nowhere does not exist in the store; its tables are t
            select k from t where k = 'x' and                     | SYNTAX      | 1 | 31 | unexpected "and" at the end of the statement
            select k from t where s like 'a_b'                    | UNSUPPORTED | 0 | 0  | the _ wildcard is not supported
            """)
    void isRefusedWithItsPosition(final String sql, final SqlException.Kind kind, final int line, final int column,
                                  final String detail) {
        assertThatThrownBy(() -> planner.plan(sql.replace("\\n", "\n")))
                .asInstanceOf(InstanceOfAssertFactories.type(SqlException.class))
                .satisfies(e -> {
                    org.assertj.core.api.Assertions.assertThat(e.kind()).isEqualTo(kind);
                    org.assertj.core.api.Assertions.assertThat(e.line()).isEqualTo(line);
                    org.assertj.core.api.Assertions.assertThat(e.column()).isEqualTo(column);
                    org.assertj.core.api.Assertions.assertThat(e.detail()).contains(detail);
                });
    }
}
