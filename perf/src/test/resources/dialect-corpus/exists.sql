-- EXISTS under OR: each subquery becomes a left join whose match marker the condition reads (TPC-DS Q10, Q35).
select count(*) as n from customer c
where exists (select 1 from orders o where o.o_custkey = c.c_custkey and o.o_orderstatus = 'F')
   or exists (select 1 from orders o where o.o_custkey = c.c_custkey and o.o_totalprice > 400000);
select c_mktsegment, count(*) as n from customer c
where c_nationkey < 10
  and (exists (select * from orders o where o.o_custkey = c.c_custkey and o.o_orderpriority = '1-URGENT')
       or not exists (select * from orders o where o.o_custkey = c.c_custkey))
group by c_mktsegment order by c_mktsegment;
-- Two NOT EXISTS side by side, each over a join (TPC-DS Q69): the second's join condition must read its own columns.
select count(*) as n from customer c, nation
where c.c_nationkey = n_nationkey
  and exists (select * from orders o, lineitem l where o.o_custkey = c.c_custkey and l.l_orderkey = o.o_orderkey
              and l.l_returnflag = 'R')
  and (not exists (select * from orders o, lineitem l where o.o_custkey = c.c_custkey and l.l_orderkey = o.o_orderkey
                   and l.l_shipmode = 'AIR')
       and not exists (select * from orders o, lineitem l where o.o_custkey = c.c_custkey
                       and l.l_orderkey = o.o_orderkey and l.l_shipmode = 'MAIL'));
select count(*) as n from customer c, nation
where c.c_nationkey = n_nationkey
  and (not exists (select * from orders o, lineitem l where o.o_custkey = c.c_custkey and l.l_orderkey = o.o_orderkey
                   and l.l_shipmode = 'AIR')
       and not exists (select * from orders o, lineitem l where o.o_custkey = c.c_custkey
                       and l.l_orderkey = o.o_orderkey and l.l_shipmode = 'MAIL'));
