package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.and;
import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.date;
import static io.sluice.engine.expr.Expr.ge;
import static io.sluice.engine.expr.Expr.lt;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Dates;
import io.sluice.engine.plan.Plan;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** TPC-H Q4, order priority checking (DATE 1993-07-01): EXISTS as a semi join. */
public final class Q04 implements Query {
    static final String SQL = TpchSql.text(4);

    @Override
    public String name() {
        return "q4";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("orders", "lineitem");
    }

    @Override
    public Plan plan() {
        final Plan late = Plan.scan("lineitem", "l_orderkey", "l_commitdate", "l_receiptdate")
                .filter(lt(col("l_commitdate"), col("l_receiptdate")));
        return Plan.scan("orders", "o_orderkey", "o_orderpriority", "o_orderdate")
                .prune(Predicate.ge("o_orderdate", Query.day("1993-07-01")),
                        Predicate.lt("o_orderdate", Query.day("1993-10-01")))
                .filter(and(ge(col("o_orderdate"), date("1993-07-01")),
                        lt(col("o_orderdate"), Dates.plusMonths("1993-07-01", 3))))
                .join(JoinType.SEMI, late, List.of("o_orderkey"), List.of("l_orderkey"))
                .aggregate(Plan.groupBy("o_orderpriority"), Plan.count("order_count"))
                .orderBy(SortKey.asc("o_orderpriority"));
    }
}
