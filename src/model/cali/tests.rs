//! The reader against caliper-reader (PyPI), on Thicket's LULESH profiles, and on bad input.

use super::*;

fn fixture(p: u32) -> &'static [u8] {
    match p {
        27 => include_bytes!("../../../tests/data/cali/mpi_scaling_cali/27_cores.cali"),
        64 => include_bytes!("../../../tests/data/cali/mpi_scaling_cali/64_cores.cali"),
        125 => include_bytes!("../../../tests/data/cali/mpi_scaling_cali/125_cores.cali"),
        216 => include_bytes!("../../../tests/data/cali/mpi_scaling_cali/216_cores.cali"),
        _ => include_bytes!("../../../tests/data/cali/mpi_scaling_cali/343_cores.cali"),
    }
}

/// What `scripts/cali-reference.py` prints: caliper-reader's reading of the five files (per
/// file its mpi.world.size, jobsize and problem_size; per region its path and the sum#, max#,
/// min# and avg#inclusive#sum#time.duration). Written by running the script once.
pub(crate) const CALIPER_READER: &str = r#"
file 27_cores.cali 27 27 30
MPI_Comm_split 0.039554 0.004587 0.000218 0.001465
MPI_Bcast 0.013078 0.000515 0.000054 0.000484
MPI_Allreduce 0.000701 0.000040 0.000019 0.000026
MPI_Comm_free 0.000214 0.000010 0.000006 0.000008
MPI_Gather 0.000010 0.000010 0.000010 0.000010
main 1275.434023 47.248547 47.226995 47.238297
main->MPI_Irecv 0.014280 0.000812 0.000022 0.000529
main->MPI_Isend 0.008473 0.000841 0.000090 0.000314
main->MPI_Waitall 0.000683 0.000038 0.000015 0.000025
main->MPI_Wait 0.027136 0.003665 0.000018 0.001005
main->MPI_Barrier 0.004890 0.000277 0.000014 0.000181
main->lulesh.cycle 1274.958590 47.231175 47.209939 47.220689
main->lulesh.cycle->TimeIncrement 212.355349 13.068559 1.975260 7.865013
main->lulesh.cycle->LagrangeLeapFrog 1062.510846 45.247442 34.138472 39.352254
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal 694.252625 29.743011 24.664263 25.713060
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes 635.624936 24.292853 18.887784 23.541664
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Irecv 0.377048 0.030198 0.008201 0.013965
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems 461.179970 23.504699 14.268992 17.080740
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems 71.435837 4.260438 2.474391 2.645772
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems 384.732540 19.076516 11.648225 14.249353
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems 102.722464 7.264818 3.146688 3.804536
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Isend 1.323330 0.091098 0.031142 0.049012
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Waitall 0.481769 0.045145 0.005086 0.017843
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Wait 162.585553 9.385840 0.264375 6.021687
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Irecv 0.244676 0.023007 0.001870 0.009411
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Waitall 34.072287 5.334291 0.004588 1.261937
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Wait 3.298682 0.567842 0.001407 0.126872
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements 363.923481 18.460905 8.731763 13.478647
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements 81.269493 5.260459 2.777026 3.009981
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems 78.181884 5.111020 2.664263 2.895625
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems 171.842735 10.881672 3.221817 6.364546
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Irecv 0.215357 0.016941 0.004253 0.007976
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Isend 0.860815 0.047762 0.023886 0.031882
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Waitall 0.354894 0.021815 0.002929 0.013144
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Wait 87.817599 8.048912 0.238596 3.252504
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQForElems 25.160893 1.691105 0.796985 0.931885
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems 109.869665 9.109776 2.314847 4.069247
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems 107.718715 9.031517 2.233399 3.989582
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems 70.071443 6.151256 1.352808 2.595239
main->lulesh.cycle->LagrangeLeapFrog->CalcTimeConstraintsForElems 4.236515 0.196510 0.146557 0.156908
main->lulesh.cycle->TimeIncrement->MPI_Allreduce 212.260775 13.065403 1.971820 7.861510
main->MPI_Reduce 0.013541 0.012413 0.000020 0.000502
MPI_Initialized 0.000113 0.000006 0.000003 0.000004
MPI_Comm_dup 0.283719 0.021674 0.000367 0.010508
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Isend 0.460246 0.032007 0.006131 0.017702
file 64_cores.cali 64 64 30
MPI_Comm_split 0.074010 0.006893 0.000235 0.001156
MPI_Bcast 0.034298 0.000601 0.000072 0.000536
MPI_Allreduce 0.002155 0.000068 0.000015 0.000034
MPI_Comm_free 0.000628 0.000013 0.000005 0.000010
MPI_Gather 0.000040 0.000021 0.000019 0.000020
main 3527.228860 55.128451 55.104933 55.112951
main->MPI_Irecv 0.047671 0.000983 0.000025 0.000745
main->MPI_Isend 0.013141 0.000903 0.000079 0.000205
main->MPI_Waitall 0.043425 0.010122 0.000013 0.000679
main->MPI_Wait 0.049097 0.010073 0.000010 0.000767
main->MPI_Barrier 0.015654 0.000460 0.000025 0.000245
main->lulesh.cycle 3526.023454 55.109769 55.086312 55.094116
main->lulesh.cycle->TimeIncrement 730.579499 17.108124 1.117251 11.415305
main->lulesh.cycle->LagrangeLeapFrog 2795.213171 53.982272 37.974148 43.675206
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal 1898.528291 33.828665 28.651380 29.664505
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes 1708.137614 28.469119 18.325546 26.689650
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Irecv 1.164126 0.061065 0.007737 0.018189
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems 1161.102149 27.403880 15.757334 18.142221
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems 179.626050 4.691730 2.475488 2.806657
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems 968.657835 22.538546 13.042433 15.135279
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems 270.542481 8.907599 3.321188 4.227226
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Isend 3.984815 0.133454 0.031400 0.062263
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Waitall 192.907452 11.801970 0.006291 3.014179
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Wait 323.329771 11.646331 0.045099 5.052028
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Irecv 0.680760 0.039445 0.001815 0.010806
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Waitall 109.028308 9.440502 0.001954 1.703567
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Wait 35.436243 9.472431 0.002095 0.562480
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements 886.163368 21.464931 8.479507 13.846303
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements 205.094077 5.672865 2.777209 3.204595
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems 197.432926 5.505381 2.672732 3.084889
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems 432.670046 12.437100 3.230791 6.760469
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Irecv 0.569334 0.023659 0.005484 0.008896
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Isend 2.609978 0.064481 0.022880 0.040781
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Waitall 27.351629 4.493135 0.004191 0.427369
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Wait 193.467827 9.455664 0.070738 3.022935
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQForElems 63.848650 2.062527 0.798875 0.997635
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems 246.082000 10.048339 2.171450 3.845031
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems 240.919358 9.934792 2.093403 3.764365
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems 155.641422 7.121227 1.259351 2.431897
main->lulesh.cycle->LagrangeLeapFrog->CalcTimeConstraintsForElems 10.276881 0.224811 0.147340 0.160576
main->lulesh.cycle->TimeIncrement->MPI_Allreduce 730.334682 17.103269 1.113965 11.411479
main->MPI_Reduce 0.004456 0.002266 0.000018 0.000070
MPI_Initialized 0.000275 0.000006 0.000003 0.000004
MPI_Comm_dup 1.003799 0.023626 0.000040 0.015684
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Isend 1.352113 0.045417 0.003850 0.021462
file 125_cores.cali 125 125 30
MPI_Comm_split 1.057255 0.012936 0.003377 0.008458
MPI_Bcast 0.215825 0.003115 0.000048 0.001727
MPI_Allreduce 0.084156 0.002060 0.000023 0.000673
MPI_Comm_free 0.001218 0.000015 0.000006 0.000010
MPI_Gather 0.000081 0.000029 0.000011 0.000020
main 7029.780397 56.252457 56.229769 56.238243
main->MPI_Irecv 0.086407 0.001084 0.000017 0.000691
main->MPI_Isend 1.305939 0.021928 0.002812 0.010448
main->MPI_Waitall 0.002560 0.000033 0.000014 0.000020
main->MPI_Wait 0.469598 0.011955 0.000013 0.003757
main->MPI_Barrier 0.298353 0.007988 0.000036 0.002387
main->lulesh.cycle 7025.584266 56.218947 56.196674 56.204674
main->lulesh.cycle->TimeIncrement 1690.332897 18.774407 2.278681 13.522663
main->lulesh.cycle->LagrangeLeapFrog 5334.800848 53.934706 37.418425 42.678407
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal 3642.695195 33.502288 24.252505 29.141562
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes 3192.612335 28.040417 18.382049 25.540899
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Irecv 2.408524 0.030649 0.009038 0.019268
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems 2213.094314 26.471076 15.367434 17.704755
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems 340.008352 4.607591 2.473825 2.720067
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems 1848.659011 21.685202 12.721264 14.789272
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems 502.308049 8.560848 3.279005 4.018464
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Isend 8.284047 0.096709 0.033610 0.066272
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Waitall 582.780602 11.681746 0.021519 4.662245
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Wait 334.617644 9.717756 0.029787 2.676941
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Irecv 1.557176 0.044794 0.002418 0.012558
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Waitall 241.062806 8.870413 0.002524 1.928502
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Wait 121.051476 9.018120 0.001663 0.976222
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements 1671.899259 25.096482 8.579100 13.375194
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements 386.733885 5.624567 2.728825 3.093871
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems 371.972155 5.460996 2.619389 2.975777
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems 799.690942 12.476460 3.185452 6.397528
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Irecv 1.135554 0.023347 0.005096 0.009084
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Isend 5.462044 0.060399 0.025316 0.043696
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Waitall 77.756214 5.721564 0.006454 0.622050
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Wait 319.991724 7.817796 0.080551 2.559934
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQForElems 119.260230 1.837175 0.787561 0.954082
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems 481.040358 12.949589 2.046009 3.848323
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems 470.993559 12.849003 1.974921 3.767948
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems 302.737801 9.295599 1.188088 2.421902
main->lulesh.cycle->LagrangeLeapFrog->CalcTimeConstraintsForElems 19.737808 0.228963 0.147122 0.157902
main->lulesh.cycle->TimeIncrement->MPI_Allreduce 1689.863544 18.770203 2.274985 13.518908
main->MPI_Reduce 0.059691 0.021422 0.000022 0.000478
MPI_Initialized 0.000577 0.000014 0.000003 0.000005
MPI_Comm_dup 1.790849 0.022731 0.000082 0.014327
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Isend 2.978131 0.046423 0.002336 0.024017
file 216_cores.cali 216 216 30
MPI_Comm_split 2.134237 0.016835 0.006590 0.009881
MPI_Bcast 0.507006 0.003518 0.000405 0.002347
MPI_Allreduce 0.333838 0.005789 0.000348 0.001546
MPI_Comm_free 0.002438 0.000021 0.000007 0.000011
MPI_Gather 0.000652 0.000247 0.000015 0.000109
main 9253.108891 42.846789 42.834890 42.838467
main->MPI_Irecv 0.191418 0.001459 0.000011 0.000886
main->MPI_Isend 2.412542 0.029240 0.002806 0.011169
main->MPI_Waitall 0.004652 0.000037 0.000014 0.000022
main->MPI_Wait 0.885841 0.023313 0.000010 0.004101
main->MPI_Barrier 2.969801 0.019171 0.000032 0.013749
main->lulesh.cycle 9242.039424 42.795932 42.784184 42.787220
main->lulesh.cycle->TimeIncrement 1917.542765 11.732073 3.188412 8.877513
main->lulesh.cycle->LagrangeLeapFrog 7323.758626 39.601373 31.048464 33.906290
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal 4797.723820 25.215744 21.157117 22.211684
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes 4439.998240 20.968364 19.879619 20.555547
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Irecv 4.463995 0.031378 0.007539 0.020667
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems 3982.680307 19.623739 17.239442 18.438335
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems 559.226635 2.757298 2.478200 2.589012
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems 3371.522189 16.621753 14.498066 15.608899
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems 843.721753 4.325852 3.557391 3.906119
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Isend 14.749981 0.097870 0.035680 0.068287
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Waitall 306.122928 2.663227 0.330803 1.417236
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Wait 34.531465 0.677443 0.015292 0.159868
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Irecv 1.885641 0.015254 0.001796 0.008770
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Waitall 115.312033 3.373418 0.004002 0.533852
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Wait 40.806316 0.509527 0.002243 0.189797
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements 2491.363357 17.155782 9.201701 11.534090
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements 642.491457 3.182586 2.796857 2.974497
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems 614.261076 3.055241 2.686671 2.843801
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems 994.720155 7.127514 3.568363 4.605186
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Irecv 2.119967 0.018419 0.006148 0.009815
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Isend 10.693983 0.064197 0.032312 0.049509
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Waitall 80.875259 1.033599 0.097805 0.374422
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Wait 211.910464 3.619395 0.225351 0.981067
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQForElems 218.468312 1.254894 0.860494 1.011427
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems 845.269328 9.293373 2.206579 3.913284
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems 823.791855 9.193081 2.116198 3.813851
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems 520.198410 6.237290 1.250650 2.408326
main->lulesh.cycle->LagrangeLeapFrog->CalcTimeConstraintsForElems 33.873651 0.173960 0.150161 0.156822
main->lulesh.cycle->TimeIncrement->MPI_Allreduce 1916.726327 11.727499 3.185336 8.873733
main->MPI_Reduce 0.050042 0.010400 0.000018 0.000232
MPI_Initialized 0.000971 0.000020 0.000003 0.000004
MPI_Comm_dup 1.870886 0.012389 0.000184 0.008662
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Isend 8.271962 0.060792 0.006183 0.038474
file 343_cores.cali 343 343 30
MPI_Comm_split 9.068366 0.037263 0.019796 0.026438
MPI_Bcast 1.329198 0.009501 0.000751 0.003875
MPI_Allreduce 1.591169 0.008677 0.000014 0.004639
MPI_Comm_free 0.004436 0.000171 0.000007 0.000013
MPI_Gather 0.001524 0.000466 0.000015 0.000152
main 18037.719346 52.608731 52.579434 52.588103
main->MPI_Irecv 0.299099 0.001306 0.000021 0.000872
main->MPI_Isend 3.997435 0.028521 0.004352 0.011654
main->MPI_Waitall 0.007842 0.000039 0.000014 0.000023
main->MPI_Wait 0.980870 0.012484 0.000010 0.002860
main->MPI_Barrier 1.908922 0.008923 0.000024 0.005565
main->lulesh.cycle 18023.739243 52.568422 52.539347 52.547345
main->lulesh.cycle->TimeIncrement 5634.769342 22.396090 1.757726 16.427899
main->lulesh.cycle->LagrangeLeapFrog 12387.800450 50.804882 30.140110 36.116036
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal 7997.337753 34.579856 20.322460 23.315854
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes 7241.464929 29.044495 18.913527 21.112143
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Irecv 7.359129 0.040298 0.008272 0.021455
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems 6154.854787 27.798107 16.621767 17.944183
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems 886.705771 4.662498 2.473658 2.585148
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems 5191.452234 22.928750 14.012084 15.135429
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems 1310.430274 8.906916 3.437222 3.820496
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Isend 24.267682 0.133164 0.036109 0.070751
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Waitall 755.164036 10.936998 0.141503 2.201644
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->MPI_Wait 147.033735 9.089399 0.018929 0.428670
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Irecv 3.712403 0.054552 0.001939 0.010855
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Waitall 367.883009 9.016906 0.002466 1.072545
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Wait 103.313238 8.778060 0.001012 0.302085
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements 4336.037747 21.676555 8.885689 12.641509
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements 1011.422447 5.855428 2.731659 2.948753
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems 970.734469 5.695909 2.622479 2.830130
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems 2004.376703 16.228210 3.377674 5.843664
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Irecv 3.295152 0.027142 0.004167 0.009607
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Isend 16.272579 0.064490 0.026662 0.047442
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Waitall 153.064318 5.905208 0.064658 0.446252
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->MPI_Wait 768.912735 12.647675 0.054851 2.241728
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQForElems 327.191887 1.935750 0.793548 0.953912
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems 1307.141116 9.356946 2.079644 3.810907
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems 1276.591900 9.279076 2.006332 3.721842
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems 811.265007 6.355766 1.235455 2.365204
main->lulesh.cycle->LagrangeLeapFrog->CalcTimeConstraintsForElems 53.180837 0.208535 0.146989 0.155046
main->lulesh.cycle->TimeIncrement->MPI_Allreduce 5633.420071 22.391759 1.754468 16.423965
main->MPI_Reduce 0.081529 0.019829 0.000022 0.000238
MPI_Initialized 0.001525 0.000016 0.000003 0.000004
MPI_Comm_dup 7.082099 0.029280 0.000091 0.020648
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->MPI_Isend 12.012411 0.061828 0.002419 0.035124
"#;

fn read_fixture(p: u32) -> Profile {
    read(fixture(p), &LIMITS).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-3 * b.abs().max(1e-12)
}

#[test]
fn every_region_value_and_global_is_caliper_readers_within_a_thousandth() {
    let mut files = 0;
    let mut checked = 0;
    let mut profile = Profile::default();
    let mut name = String::new();
    for line in CALIPER_READER.lines().filter(|l| !l.is_empty()) {
        let words: Vec<&str> = line.split(' ').collect();
        if words[0] == "file" {
            name = words[1].to_string();
            let p: u32 = name.split('_').next().and_then(|n| n.parse().ok()).unwrap();
            profile = read_fixture(p);
            assert_eq!(profile.global("mpi.world.size"), Some(words[2]), "{name}");
            assert_eq!(profile.global("jobsize"), Some(words[3]), "{name}");
            assert_eq!(profile.global("problem_size"), Some(words[4]), "{name}");
            assert_eq!(profile.processes() as f64, words[2].parse::<f64>().unwrap(), "{name}");
            files += 1;
            continue;
        }
        let path: Vec<&str> = words[0].split("->").collect();
        let record = profile.records.iter().find(|r| r.path == path).unwrap_or_else(|| panic!("{name}: {}", words[0]));
        for (stat, want) in ["sum", "max", "min", "avg"].iter().zip(&words[1..]) {
            let a = profile.attribute(&format!("{stat}#inclusive#sum#time.duration")).unwrap();
            let got = record.values.iter().find(|v| v.0 == a).map(|v| v.1).unwrap();
            let want: f64 = want.parse().unwrap();
            assert!(close(got, want), "{name} {} {stat}: {got} against caliper-reader's {want}", words[0]);
            checked += 1;
        }
    }
    assert_eq!((files, checked), (5, 4 * (230 - 5)));
}

/// caliper-reader's (path, sum, max) of a region.
type Expected = (String, f64, f64);

/// caliper-reader's figures of each region, per file in CALIPER_READER's order, with the
/// file's process count.
fn expected() -> Vec<(u32, Vec<Expected>)> {
    let mut out: Vec<(u32, Vec<Expected>)> = Vec::new();
    for line in CALIPER_READER.lines().filter(|l| !l.is_empty()) {
        let w: Vec<&str> = line.split(' ').collect();
        if w[0] == "file" {
            out.push((w[2].parse().unwrap(), Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push((w[0].to_string(), w[1].parse().unwrap(), w[2].parse().unwrap()));
        }
    }
    out
}

#[test]
fn the_region_figures_are_caliper_readers_sums_and_maxima_per_path() {
    let all = expected();
    assert_eq!(all.len(), 5);
    for (np, want) in &all {
        let p = read_fixture(*np);
        let metrics = p.metrics();
        assert_eq!(metrics, vec![Metric { name: "sum#time.duration".into(), inclusive: true, exclusive: false }]);
        let got = p.regions("sum#time.duration", true).unwrap();
        assert_eq!(got.len(), want.len(), "one figure per path, as caliper-reader's records");
        for (g, (path, sum, max)) in got.iter().zip(want) {
            assert_eq!(&g.path, path);
            assert!(close(g.total, *sum) && close(g.max, *max), "{path}: {g:?} against {sum}, {max}");
        }
        assert!(p.regions("sum#time.duration", false).is_err(), "no exclusive values in these files");
    }
}

#[test]
fn the_tree_attributes_and_globals_are_read() {
    let p = read_fixture(343);
    let cycle = p.records.iter().find(|r| r.path == ["main", "lulesh.cycle"]).unwrap();
    let channel = p.attribute("spot.channel").unwrap();
    assert!(cycle.keys.contains(&(channel, "regionprofile".to_string())));
    let a = &p.attributes[p.attribute("avg#inclusive#sum#time.duration").unwrap()];
    assert_eq!(
        (a.type_name.as_str(), a.alias.as_deref(), a.unit.as_deref()),
        ("double", Some("Avg time/rank"), Some("sec"))
    );
    assert!(p.attributes[p.attribute("function").unwrap()].nested());
    assert!(p.attributes[p.attribute("avg.count#inclusive#sum#time.duration").unwrap()].hidden());
    // An escaped ',' inside a value: the list of libraries is one global.
    let libs = p.global("libraries").unwrap();
    assert!(libs.starts_with("[linux-vdso.so.1,/") && libs.ends_with(']'), "{libs}");
    let numeric: Vec<String> = p.numeric_globals().into_iter().map(|g| g.0).collect();
    for g in ["mpi.world.size", "jobsize", "problem_size", "iterations", "elapsed_time"] {
        assert!(numeric.iter().any(|n| n == g), "{g} in {numeric:?}");
    }
    assert!(!numeric.iter().any(|n| n == "cluster"));
}

/// A small profile in the format, for the bad-input cases.
const SMALL: &str = "__rec=node,id=12,attr=10,data=268,parent=3
__rec=node,id=13,attr=8,data=region,parent=12
__rec=node,id=14,attr=10,data=1,parent=5
__rec=node,id=15,attr=8,data=sum#time.duration,parent=14
__rec=node,id=16,attr=13,data=main
__rec=node,id=17,attr=13,data=solve,parent=16
__rec=ctx,ref=16,attr=15,data=1.5
__rec=ctx,ref=17,attr=15,data=2.5
";

#[test]
fn a_small_profile_reads_and_adds_records_of_one_path() {
    let p = read(SMALL.as_bytes(), &LIMITS).unwrap();
    let r = p.regions("time.duration", false).unwrap();
    assert_eq!(
        r,
        vec![
            RegionValue { path: "main".into(), total: 1.5, max: 1.5 },
            RegionValue { path: "main->solve".into(), total: 2.5, max: 2.5 }
        ]
    );
    // One record per rank: totals add up, the largest is the largest rank's total.
    let ranks = "__rec=node,id=18,attr=10,data=12,parent=1\n__rec=node,id=19,attr=8,data=mpi.rank,parent=18\n\
                 __rec=node,id=20,attr=19,data=0\n__rec=node,id=21,attr=19,data=1\n\
                 __rec=node,id=22,attr=13,data=main,parent=20\n__rec=node,id=23,attr=13,data=main,parent=21\n\
                 __rec=ctx,ref=22,attr=15,data=1\n__rec=ctx,ref=23,attr=15,data=3\n__rec=ctx,ref=23,attr=15,data=0.5\n";
    let p = read(format!("{SMALL}{ranks}").as_bytes(), &LIMITS).unwrap();
    assert_eq!(p.processes(), 2);
    let main = p.regions("time.duration", false).unwrap().into_iter().find(|r| r.path == "main").unwrap();
    assert_eq!((main.total, main.max), (1.5 + 1.0 + 3.5, 3.5));
}

#[test]
fn bad_input_is_an_error_naming_line_and_column_never_a_panic() {
    let cases: &[(&str, usize, usize, &str)] = &[
        // A record cut short: its values fewer than its attributes.
        ("__rec=ctx,ref=17,attr=15=15,data=2.5", 7, 34, "a record cut short"),
        // A record cut inside an escape.
        ("__rec=node,id=18,attr=13,data=so\\", 7, 33, "escapes nothing"),
        // A metric that is not a number.
        ("__rec=ctx,ref=17,attr=15,data=2.5x", 7, 31, "expected a number for sum#time.duration, found \"2.5x\""),
        ("__rec=ctx,ref=17,attr=15,data=nan", 7, 31, "expected a number"),
        ("__rec=ctx,ref=99,attr=15,data=1", 7, 15, "99 is not a node defined above"),
        ("__rec=node,id=16,attr=13,data=again", 7, 15, "defined twice"),
        ("__rec=node,id=x,attr=13", 7, 15, "expected a node id"),
        ("__rec=node,id=30,attr=16,data=a", 7, 23, "not an attribute"),
        ("id=30,attr=13", 7, 1, "expected a record starting __rec="),
    ];
    for &(bad, line, column, words) in cases {
        // The bad record replaces line 7 of the small profile.
        let mut lines: Vec<&str> = SMALL.lines().collect();
        lines[6] = bad;
        let text = lines.join("\n");
        let e = read(text.as_bytes(), &LIMITS).unwrap_err();
        assert_eq!((e.line, e.column), (Some(line), Some(column)), "{bad}: {e}");
        assert!(e.message.contains(words), "{bad}: {e}");
        assert_eq!(e.field, FIELD);
    }
    // Not text at all, and nothing of Caliper's.
    let e = read(b"__rec=node\n\xff\xfe", &LIMITS).unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");
    assert!(read(b"", &LIMITS).is_err());
    // Limits named.
    let e = read(SMALL.as_bytes(), &Limits { max_nodes: 14, ..LIMITS }).unwrap_err();
    assert!(e.message.contains("the limit of nodes"), "{e}");
    let e = read(SMALL.as_bytes(), &Limits { max_records: 1, ..LIMITS }).unwrap_err();
    assert_eq!(e.line, Some(8), "{e}");
}

#[test]
fn any_cut_or_changed_byte_of_a_real_profile_reads_or_is_refused_without_panicking() {
    let bytes = fixture(27);
    for cut in (0..bytes.len()).step_by(97) {
        let _ = read(&bytes[..cut], &LIMITS).map(|p| p.regions("sum#time.duration", true));
    }
    for (i, b) in [b'\\', b',', b'=', b'x', b'\n', b'9'].iter().cycle().take(600).enumerate() {
        let mut v = bytes.to_vec();
        let at = (i * 7919) % v.len();
        v[at] = *b;
        if let Ok(p) = read(&v, &LIMITS) {
            let _ = p.regions("sum#time.duration", true);
            let _ = p.processes();
        }
    }
}
