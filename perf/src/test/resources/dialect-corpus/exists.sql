-- EXISTS under OR: each subquery becomes a left join whose match marker the condition reads (TPC-DS Q10, Q35).
select count(*) as n from customer c
where exists (select 1 from orders o where o.o_custkey = c.c_custkey and o.o_orderstatus = 'F')
   or exists (select 1 from orders o where o.o_custkey = c.c_custkey and o.o_totalprice > 400000);
select c_mktsegment, count(*) as n from customer c
where c_nationkey < 10
  and (exists (select * from orders o where o.o_custkey = c.c_custkey and o.o_orderpriority = '1-URGENT')
       or not exists (select * from orders o where o.o_custkey = c.c_custkey))
group by c_mktsegment order by c_mktsegment;
