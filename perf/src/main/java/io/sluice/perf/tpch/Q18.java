package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.gt;
import static io.sluice.engine.expr.Expr.lit;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.plan.Plan;
import java.util.List;

/** TPC-H Q18, large volume customer (QUANTITY 300): IN (subquery with HAVING) as a semi join. */
public final class Q18 implements Query {
    static final String SQL = TpchSql.text(18);

    @Override
    public String name() {
        return "q18";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("customer", "orders", "lineitem");
    }

    @Override
    public Plan plan() {
        final Plan large = Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .aggregate(Plan.groupBy("l_orderkey"), Plan.sum(col("l_quantity"), "quantity"))
                .filter(gt(col("quantity"), lit(300)))
                .select("l_orderkey");
        final Plan orders = Plan.scan("orders", "o_orderkey", "o_custkey", "o_orderdate", "o_totalprice")
                .join(JoinType.SEMI, large, List.of("o_orderkey"), List.of("l_orderkey"))
                .join(JoinType.INNER, Plan.scan("customer", "c_custkey", "c_name"),
                        List.of("o_custkey"), List.of("c_custkey"));
        return Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .join(JoinType.INNER, orders, List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.groupBy("c_name", "c_custkey", "o_orderkey", "o_orderdate", "o_totalprice"),
                        Plan.sum(col("l_quantity"), "sum(l_quantity)"))
                .orderBy(SortKey.desc("o_totalprice"), SortKey.asc("o_orderdate"))
                .limit(100);
    }
}
