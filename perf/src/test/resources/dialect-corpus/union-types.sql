-- UNION ALL and FULL OUTER JOIN of a 128-bit sum with a 64-bit decimal column (TPC-DS Q51).
select s from (select sum(o_totalprice) as s from orders union all select c_acctbal as s from customer
               where c_custkey < 4) u order by s;
select coalesce(a.k, b.k) as k, a.s as sa, b.s as sb
from (select o_custkey as k, sum(sum(o_totalprice)) over (partition by o_custkey) as s from orders
      where o_custkey < 50 group by o_custkey) a
full outer join (select c_custkey as k, c_acctbal as s from customer where c_custkey between 40 and 60) b
  on a.k = b.k
order by k;
