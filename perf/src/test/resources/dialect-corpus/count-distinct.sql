-- COUNT(DISTINCT x) of every type, several in one query.
select count(distinct o_orderstatus) as statuses from orders;
select o_orderpriority, count(distinct o_clerk) as clerks from orders group by o_orderpriority order by o_orderpriority;
select count(distinct l_shipmode) as modes, count(distinct l_suppkey) as suppliers, count(distinct l_shipdate) as days,
       count(distinct l_discount) as discounts from lineitem;
select l_returnflag, count(distinct l_shipinstruct) as instructions, count(distinct l_linestatus) as statuses,
       sum(l_quantity) as quantity, count(*) as n
from lineitem group by l_returnflag order by l_returnflag;
select count(distinct case when o_orderkey < 3000 then null else o_orderpriority end) as p from orders;
select c_mktsegment, count(distinct substring(c_phone from 1 for 2)) as prefixes
from customer group by c_mktsegment order by c_mktsegment;
