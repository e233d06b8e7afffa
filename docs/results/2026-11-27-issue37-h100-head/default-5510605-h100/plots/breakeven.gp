# SpMVs needed to pay back the conversion from CSR (Reguly's figure 16); missing bars: never faster than the fastest CSR kernel.
set title 'Products until a conversion from CSR pays back, cuda: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB, L2 50 MiB)' noenhanced
set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1
set xlabel 'matrix (no bar: that format is never faster than the fastest CSR kernel)'; set grid y
set ylabel 'SpMVs to break even (1: pays back at once)'; set xtics rotate by 30 right noenhanced; set lmargin 14
set key outside below horizontal
set logscale y; set yrange [0.8:*]
plot for [i=2:7] 'breakeven.dat' using i:xtic(1) title columnheader(i)
