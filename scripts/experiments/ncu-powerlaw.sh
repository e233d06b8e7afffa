#!/usr/bin/env bash
# Power law: ours (CSR adaptive) and cuSPARSE CSR ALG1, DRAM bytes and instruction mix (issue 37 next step 1).
B=build-gpu/bin/hsparse
M="powerlaw:min=2.5,rows=4000000"
MET=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,launch__grid_size,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
for fk in "csr adaptive" "csr cusparse-alg1" "coo cusparse" "hyb thread"; do
  set -- $fk
  echo "### $M $1 $2" >> $OUT/ncu-pl.log
  timeout 150 ncu --clock-control none --launch-skip 3 --launch-count 3 --metrics $MET $B spmv "$M" --backend cuda --format $1 --kernel $2 --repetitions 3 --min-time 0.01 >> $OUT/ncu-pl.log 2>&1
done
