# Best hsparse kernel over each baseline per matrix; 1 = parity (dashed).
set title 'Best hsparse kernel against the baselines, cuda: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB, L2 50 MiB)' noenhanced
set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1
set xlabel 'matrix'; set ylabel 'speedup (best hsparse GFLOP/s / baseline GFLOP/s)'; set yrange [0:*]; set grid y
set xtics rotate by 30 right noenhanced; set lmargin 14; set key outside below horizontal noenhanced
set key autotitle columnhead  # the data's first line is its header, not a matrix
set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2
plot 'speedup.dat' using 2:xtic(1) title 'vs cusparse (its best format)', 'speedup.dat' using 3 title 'vs cusparse CSR'
