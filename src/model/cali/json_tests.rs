//! The json-split reader against a reference read of Hatchet's test files (plain Python `json`,
//! checked against Hatchet), and on bad input.

use super::*;

const CPI: &[u8] = include_bytes!("../../../tests/data/caliper-json/cpi-callpath-profile.json");
const LULESH: &[u8] = include_bytes!("../../../tests/data/caliper-json/lulesh-annotation-profile.json");
const ORDERED: &[u8] = include_bytes!("../../../tests/data/caliper-json/caliper-region-node-order.json");

const LIMITS: Limits = Limits { max_paths: 100_000, max_locations: 100_000 };

/// Printed by `/work/venv/bin/python scripts/cali-json-reference.py` (Python 3.11, the
/// standard `json` module; the script's Hatchet check, llnl-hatchet 2026.2.0, said "agrees"
/// of the three exclusive sections): per file and kind (`exclusive`; `inclusive`, the file's inclusive column;
/// `summed`, inclusive summed up the tree from the exclusive column) and column, per call path
/// in the order first seen, the sum over ranks and the largest rank's value, in seconds.
const REFERENCE: &str = "\
# cpi-callpath-profile.json exclusive sum#time.duration
_start->__libc_start_main->main	1.273541	0.344782
_start->__libc_start_main->main->MPI_Bcast->mv2_increment_shmem_coll_counter->PMPI_Comm_test_inter	0.005007	0.005007
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2	0.050023	0.019998000000000002
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2->UNKNOWN->psm2_mq_finalize	0.005020999999999999	0.005020999999999999
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2	0.010010999999999999	0.0050089999999999996
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2	0.035179999999999996	0.035179999999999996
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->__GI___libc_malloc->_int_malloc	0.0050149999999999995	0.0050149999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv	0.010025	0.005013
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN->UNKNOWN->UNKNOWN->psm2_mq_finalize->psm2_mq_finalize->psm2_mq_finalize	0.005029	0.005029
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2	0.015018	0.010014
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast	0.0050409999999999995	0.0050409999999999995
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->_init	0.009998	0.009998
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->_int_free	0.015045	0.005017
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->MPIDI_CH3_Progress_start->psm2_poll	0.005005	0.005005
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait	0.035033999999999996	0.015018
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->__libm_log2_l9	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->__GI___libc_free	0.005011	0.005011
pthread_spin_lock	0.119976	0.045010999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIR_SUM	0.00501	0.00501
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->MPIDI_CH3_Progress_start->psm2_poll->UNKNOWN	0.035045	0.035045
_start->__libc_start_main->main->PMPI_Reduce->mv2_increment_shmem_coll_counter->PMPI_Comm_test_inter	0.005005	0.005005
_start->__libc_start_main->main->PMPI_Reduce	0.005004	0.005004
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast	0.20988599999999996	0.08001099999999998
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait	0.010012	0.010012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend	0.010017999999999999	0.005011
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->MPIUI_Memcpy->__intel_avx_rep_memcpy	0.035031	0.025012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->__GI___libc_malloc	0.0050149999999999995	0.0050149999999999995
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->MPIDU_Sched_progress	0.015170999999999999	0.005148
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->__libm_exp2_l9	0.010025	0.005013
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIR_Reduce_knomial_trace	0.010006000000000001	0.005006
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2->_int_free->malloc_consolidate	0.030042	0.030042
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->MPIR_Type_get_true_extent_impl	0.0049949999999999994	0.0049949999999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_test2	0.010022	0.010022
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_test2->psm2_mq_finalize	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany	0.004973	0.004973
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->MPIDU_Sched_progress	0.00501	0.00501
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl	0.015040999999999999	0.00502
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIR_Request_complete->MPIDI_CH3_Request_destroy	0.0050279999999999995	0.0050279999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->psm_progress_wait->psm_process_completion	0.005019	0.005019
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->psm2_mq_ipeek2	0.07010799999999999	0.030038
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2	0.0050149999999999995	0.0050149999999999995
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->psm2_mq_ipeek2->psm2_poll	0.040041	0.024992
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2->UNKNOWN	0.005026999999999999	0.005026999999999999
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Irecv->MPID_Irecv->psm_irecv->psm2_mq_irecv2	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2->UNKNOWN->UNKNOWN	0.045145	0.020075
log2	0.005006	0.005006
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt	0.005046	0.005046
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll	0.00502	0.00502
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN	0.025018	0.025018
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN->UNKNOWN	0.010036	0.010036
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2->_int_free	0.005003	0.005003
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN	0.0050219999999999996	0.0050219999999999996
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm_process_completion->psm_complete_req	0.00502	0.00502
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIDI_CH3_Progress_start->psm2_poll	0.0050149999999999995	0.0050149999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIDI_CH3_Progress_start->psm2_poll->UNKNOWN	0.00501	0.00501
# cpi-callpath-profile.json summed sum#time.duration
_start	2.1749239999999994	0.5749850000000001
_start->__libc_start_main	2.1749239999999994	0.5749850000000001
_start->__libc_start_main->main	2.1749239999999994	0.5749850000000001
_start->__libc_start_main->main->MPI_Bcast	0.535439	0.170139
_start->__libc_start_main->main->MPI_Bcast->mv2_increment_shmem_coll_counter	0.005007	0.005007
_start->__libc_start_main->main->MPI_Bcast->mv2_increment_shmem_coll_counter->PMPI_Comm_test_inter	0.005007	0.005007
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl	0.5304320000000001	0.170139
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2	0.5304320000000001	0.170139
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2	0.5304320000000001	0.170139
_start->__libc_start_main->main->PMPI_Reduce	0.365944	0.20046199999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl	0.355935	0.19545799999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2	0.355935	0.19545799999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2	0.355935	0.19545799999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2	0.34091699999999997	0.19545799999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2	0.34091699999999997	0.19545799999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend	0.085297	0.030097
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend	0.085297	0.030097
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend	0.075279	0.025135999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv	0.075279	0.025135999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt	0.06525399999999999	0.025089999999999998
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2	0.060208	0.025089999999999998
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2->UNKNOWN	0.05519299999999999	0.020075
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2->UNKNOWN->psm2_mq_finalize	0.005020999999999999	0.005020999999999999
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany	0.160382	0.160382
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait	0.11535899999999999	0.11535899999999999
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2	0.080283	0.080283
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->__GI___libc_malloc	0.010029999999999999	0.010029999999999999
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->__GI___libc_malloc->_int_malloc	0.0050149999999999995	0.0050149999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll	0.045103000000000004	0.045103000000000004
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN	0.040082999999999994	0.040082999999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN->UNKNOWN	0.015064999999999999	0.015064999999999999
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN->UNKNOWN->UNKNOWN	0.005029	0.005029
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN->UNKNOWN->UNKNOWN->psm2_mq_finalize	0.005029	0.005029
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN->UNKNOWN->UNKNOWN->psm2_mq_finalize->psm2_mq_finalize	0.005029	0.005029
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN->UNKNOWN->UNKNOWN->psm2_mq_finalize->psm2_mq_finalize->psm2_mq_finalize	0.005029	0.005029
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2	0.040086000000000004	0.040086000000000004
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2	0.040086000000000004	0.040086000000000004
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2	0.040086000000000004	0.040086000000000004
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2->MPIR_Shmem_Bcast_MV2	0.0050409999999999995	0.0050409999999999995
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast	0.0050409999999999995	0.0050409999999999995
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2	0.425286	0.15010099999999996
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast	0.420291	0.15010099999999996
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->_init	0.009998	0.009998
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->_int_free	0.015045	0.005017
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->MPIDI_CH3_Progress_start	0.04005	0.04005
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->MPIDI_CH3_Progress_start->psm2_poll	0.04005	0.04005
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait	0.165376	0.060041
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->__libm_log2_l9	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->__GI___libc_free	0.005011	0.005011
pthread_spin_lock	0.119976	0.045010999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIR_SUM	0.00501	0.00501
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->MPIDI_CH3_Progress_start->psm2_poll->UNKNOWN	0.035045	0.035045
_start->__libc_start_main->main->PMPI_Reduce->mv2_increment_shmem_coll_counter	0.005005	0.005005
_start->__libc_start_main->main->PMPI_Reduce->mv2_increment_shmem_coll_counter->PMPI_Comm_test_inter	0.005005	0.005005
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->MPIUI_Memcpy	0.035031	0.025012
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->MPIUI_Memcpy->__intel_avx_rep_memcpy	0.035031	0.025012
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->MPIDU_Sched_progress	0.015170999999999999	0.005148
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->__libm_exp2_l9	0.010025	0.005013
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIR_Reduce_knomial_trace	0.010006000000000001	0.005006
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2->_int_free	0.035045	0.035045
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Bcast_tune_inter_node_helper_MV2->MPIR_Knomial_Bcast_inter_node_wrapper_MV2->MPIR_Knomial_Bcast_inter_node_MV2->_int_free->malloc_consolidate	0.030042	0.030042
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->MPIR_Type_get_true_extent_impl	0.0049949999999999994	0.0049949999999999994
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_test2	0.015033999999999999	0.015033999999999999
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm2_mq_test2->psm2_mq_finalize	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->MPIDU_Sched_progress	0.00501	0.00501
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall	0.035113	0.015045
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl	0.035113	0.015045
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIR_Request_complete	0.0050279999999999995	0.0050279999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIR_Request_complete->MPIDI_CH3_Request_destroy	0.0050279999999999995	0.0050279999999999995
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->psm_progress_wait	0.005019	0.005019
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->psm_progress_wait->psm_process_completion	0.005019	0.005019
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->psm2_mq_ipeek2	0.11517099999999998	0.04503
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->psm2_mq_ipeek2->psm2_poll	0.045063	0.024992
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Irecv	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Irecv->MPID_Irecv	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Irecv->MPID_Irecv->psm_irecv	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Irecv->MPID_Irecv->psm_irecv->psm2_mq_irecv2	0.005012	0.005012
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Isend->MPID_Isend->MPIDI_CH3_EagerContigIsend->psm_isendv->psm_isend_pkt->psm2_mq_isend2->UNKNOWN->UNKNOWN	0.045145	0.020075
log2	0.005006	0.005006
_start->__libc_start_main->main->MPI_Bcast->MPIR_Bcast_impl->MPIR_Bcast_MV2->MPIR_Bcast_index_tuned_intra_MV2->MPIR_Shmem_Bcast_MV2->mv2_shm_bcast->psm_progress_wait->psm2_mq_ipeek2->psm2_poll->UNKNOWN	0.0050219999999999996	0.0050219999999999996
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm_process_completion	0.00502	0.00502
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPI_Waitany->psm_progress_wait->psm_process_completion->psm_complete_req	0.00502	0.00502
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIDI_CH3_Progress_start	0.010025	0.010025
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIDI_CH3_Progress_start->psm2_poll	0.010025	0.010025
_start->__libc_start_main->main->PMPI_Reduce->MPIR_Reduce_impl->MPIR_Reduce_MV2->MPIR_Reduce_index_tuned_intra_MV2->MPIR_Reduce_inter_knomial_wrapper_MV2->MPIR_Reduce_knomial_MV2->MPIC_Waitall->MPIR_Waitall_impl->MPIDI_CH3_Progress_start->psm2_poll->UNKNOWN	0.00501	0.00501
# lulesh-annotation-profile.json exclusive sum#time.duration
main	0.954988	0.137098
main->LagrangeLeapFrog	0.007156	0.0035199999999999997
main->LagrangeLeapFrog->LagrangeElements	0.005711	0.000923
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems	0.113333	0.022583
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems	2.03811	0.393451
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems	2.300423	0.42672899999999997
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems->CalcPressureForElems	1.4196389999999999	0.29478
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcSoundSpeedForElems	0.07092999999999999	0.011973
main->LagrangeLeapFrog->LagrangeElements->UpdateVolumesForElems	0.099457	0.042609
main->LagrangeLeapFrog->CalcTimeConstraintsForElems	0.059511999999999995	0.021492999999999998
main->LagrangeLeapFrog->CalcTimeConstraintsForElems->CalcCourantConstraintForElems	0.23132699999999998	0.085866
main->LagrangeLeapFrog->CalcTimeConstraintsForElems->CalcHydroConstraintForElems	0.082423	0.029653
main->TimeIncrement	2.10831	0.423809
main->LagrangeLeapFrog->LagrangeNodal	2.07592	0.340105
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes	2.36208	0.537984
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems	0.08696799999999999	0.018019
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems	5.802034999999999	0.9878039999999999
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems	4.594471999999999	0.599077
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems	9.578883	1.2767439999999999
main->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements	0.19373999999999997	0.03309
main->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems	5.925872	0.907675
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems	2.2554130000000003	0.480632
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQGradientsForElems	3.148465	0.44875299999999996
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQRegionForElems	1.6040450000000002	0.26245799999999997
# lulesh-annotation-profile.json inclusive inclusive#sum#time.duration
main	47.119212	5.905595
main->LagrangeLeapFrog	44.055914	5.761086
main->LagrangeLeapFrog->LagrangeElements	19.175138	2.567754
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems	5.942435	0.9765109999999999
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems	5.829102	0.962868
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems	3.7200619999999995	0.647474
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems->CalcPressureForElems	1.4196389999999999	0.29478
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcSoundSpeedForElems	0.07092999999999999	0.011973
main->LagrangeLeapFrog->LagrangeElements->UpdateVolumesForElems	0.099457	0.042609
main->LagrangeLeapFrog->CalcTimeConstraintsForElems	0.373262	0.137012
main->LagrangeLeapFrog->CalcTimeConstraintsForElems->CalcCourantConstraintForElems	0.23132699999999998	0.085866
main->LagrangeLeapFrog->CalcTimeConstraintsForElems->CalcHydroConstraintForElems	0.082423	0.029653
main->TimeIncrement	2.10831	0.423809
main->LagrangeLeapFrog->LagrangeNodal	24.500358	3.202921
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes	22.424438	2.8802149999999997
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems	20.062358000000003	2.672212
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems	5.802034999999999	0.9878039999999999
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems	14.173354999999999	1.875821
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems	9.578883	1.2767439999999999
main->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements	6.119612	0.930739
main->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems	5.925872	0.907675
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems	7.007923	1.080771
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQGradientsForElems	3.148465	0.44875299999999996
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQRegionForElems	1.6040450000000002	0.26245799999999997
# lulesh-annotation-profile.json summed sum#time.duration
main	47.11921199999999	5.905595000000001
main->LagrangeLeapFrog	44.05591399999999	5.761085999999999
main->LagrangeLeapFrog->LagrangeElements	19.175138	2.567754
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems	5.9424350000000015	0.976511
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems	5.829102000000002	0.962868
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems	3.7200619999999995	0.647474
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems->CalcPressureForElems	1.4196389999999999	0.29478
main->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcSoundSpeedForElems	0.07092999999999999	0.011973
main->LagrangeLeapFrog->LagrangeElements->UpdateVolumesForElems	0.099457	0.042609
main->LagrangeLeapFrog->CalcTimeConstraintsForElems	0.37326200000000004	0.137012
main->LagrangeLeapFrog->CalcTimeConstraintsForElems->CalcCourantConstraintForElems	0.23132699999999998	0.085866
main->LagrangeLeapFrog->CalcTimeConstraintsForElems->CalcHydroConstraintForElems	0.082423	0.029653
main->TimeIncrement	2.10831	0.423809
main->LagrangeLeapFrog->LagrangeNodal	24.500358000000002	3.202921
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes	22.424438	2.8802149999999997
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems	20.062358	2.672212
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems	5.802034999999999	0.9878039999999999
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems	14.173354999999995	1.8758209999999997
main->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems	9.578883	1.2767439999999999
main->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements	6.119612	0.930739
main->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems	5.925872	0.907675
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems	7.007922999999999	1.080771
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQGradientsForElems	3.148465	0.44875299999999996
main->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQRegionForElems	1.6040450000000002	0.26245799999999997
# caliper-region-node-order.json exclusive time
main	0.018887	0.018887
main->lulesh.cycle	0.000154	0.000154
main->lulesh.cycle->TimeIncrement	0.0001	0.0001
main->lulesh.cycle->LagrangeLeapFrog	0.000159	0.000159
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal	0.03822	0.03822
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes	0.005107	0.005107
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems	0.004684	0.004684
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems	0.1615	0.1615
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems	0.16335	0.16335
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems	0.23982	0.23982
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements	0.003603	0.003603
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements	0.007004	0.007004
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems	0.168298	0.168298
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems	0.097482	0.097482
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQForElems	0.03857	0.03857
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems	0.006099	0.006099
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems	0.102499	0.102499
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems	0.190896	0.190896
main->lulesh.cycle->LagrangeLeapFrog->CalcTimeConstraintsForElems	0.01073	0.01073
# caliper-region-node-order.json summed time
main	1.257162	1.257162
main->lulesh.cycle	1.238275	1.238275
main->lulesh.cycle->TimeIncrement	0.0001	0.0001
main->lulesh.cycle->LagrangeLeapFrog	1.238021	1.238021
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal	0.612681	0.612681
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes	0.574461	0.574461
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems	0.569354	0.569354
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->IntegrateStressForElems	0.1615	0.1615
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems	0.40317000000000003	0.40317000000000003
main->lulesh.cycle->LagrangeLeapFrog->LagrangeNodal->CalcForceForNodes->CalcVolumeForceForElems->CalcHourglassControlForElems->CalcFBHourglassForceForElems	0.23982	0.23982
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements	0.6144510000000001	0.6144510000000001
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements	0.175302	0.175302
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcLagrangeElements->CalcKinematicsForElems	0.168298	0.168298
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems	0.136052	0.136052
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->CalcQForElems->CalcMonotonicQForElems	0.03857	0.03857
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems	0.29949400000000004	0.29949400000000004
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems	0.293395	0.293395
main->lulesh.cycle->LagrangeLeapFrog->LagrangeElements->ApplyMaterialPropertiesForElems->EvalEOSForElems->CalcEnergyForElems	0.190896	0.190896
main->lulesh.cycle->LagrangeLeapFrog->CalcTimeConstraintsForElems	0.01073	0.01073
";

/// The reference's section of a file and kind: (path, total, max).
fn reference(file: &str, kind: &str) -> Vec<(String, f64, f64)> {
    let mut out = Vec::new();
    let mut on = false;
    for line in REFERENCE.lines() {
        if let Some(head) = line.strip_prefix("# ") {
            let mut w = head.split(' ');
            on = w.next() == Some(file) && w.next() == Some(kind);
            continue;
        }
        if on {
            let mut cells = line.split('\t');
            let path = cells.next().unwrap().to_string();
            let total: f64 = cells.next().unwrap().parse().unwrap();
            let max: f64 = cells.next().unwrap().parse().unwrap();
            out.push((path, total, max));
        }
    }
    assert!(!out.is_empty(), "no reference for {file} {kind}");
    out
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()) || a == b
}

fn assert_matches(got: &RunProfile, want: &[(String, f64, f64)], what: &str) {
    let paths: Vec<&str> = got.paths.iter().map(|p| p.path.as_str()).collect();
    let expected: Vec<&str> = want.iter().map(|w| w.0.as_str()).collect();
    assert_eq!(paths, expected, "{what}: the paths, in order");
    for (p, (path, total, max)) in got.paths.iter().zip(want) {
        assert!(close(p.total, *total), "{what}: {path}: total {} against {total}", p.total);
        assert!(close(p.max, *max), "{what}: {path}: max {} against {max}", p.max);
    }
}

fn exclusive() -> Want {
    Want::default()
}

fn inclusive() -> Want {
    Want { metric: None, inclusive: true }
}

#[test]
fn cpi_sampled_call_stacks_match_the_reference() {
    let r = read(CPI, &exclusive(), &LIMITS).unwrap();
    assert_eq!(r.metric, "sum#time.duration");
    assert_eq!(r.metrics, ["count", "sum#time.duration"]);
    assert_eq!(r.locations, 4);
    assert!(!r.inclusive);
    assert_matches(&r, &reference("cpi-callpath-profile.json", "exclusive"), "cpi exclusive");
    assert_eq!(r.globals, [(RANKS_GLOBAL.to_string(), 4.0)]);
    let r = read(CPI, &inclusive(), &LIMITS).unwrap();
    assert!(r.inclusive);
    assert_matches(&r, &reference("cpi-callpath-profile.json", "summed"), "cpi summed inclusive");
}

#[test]
fn lulesh_regions_match_the_reference_both_ways() {
    let r = read(LULESH, &exclusive(), &LIMITS).unwrap();
    assert_eq!(r.metrics, ["sum#time.duration"]);
    assert_eq!(r.locations, 8);
    assert_matches(&r, &reference("lulesh-annotation-profile.json", "exclusive"), "lulesh exclusive");
    let r = read(LULESH, &inclusive(), &LIMITS).unwrap();
    assert_matches(&r, &reference("lulesh-annotation-profile.json", "inclusive"), "lulesh inclusive");
    // The file's inclusive column is its exclusive one summed up the tree (the reference says
    // so to the last digit): the sum this reader does where a file has no inclusive column.
    assert_matches(&r, &reference("lulesh-annotation-profile.json", "summed"), "lulesh summed");
    // main, all 8 ranks: 47.12 s inclusive, 5.906 s on the largest (the file gives microseconds).
    assert!(close(r.paths[0].total, reference("lulesh-annotation-profile.json", "inclusive")[0].1));
}

#[test]
fn a_region_profile_in_seconds_with_its_globals() {
    let r = read(ORDERED, &exclusive(), &LIMITS).unwrap();
    assert_eq!(r.metric, "time");
    assert_eq!(r.metrics, ["time"], "Node order is no metric");
    assert_eq!(r.locations, 1);
    assert_matches(&r, &reference("caliper-region-node-order.json", "exclusive"), "ordered exclusive");
    assert_eq!(r.paths[0], PathValue { path: "main".into(), total: 0.018887, max: 0.018887 });
    let r = read(ORDERED, &inclusive(), &LIMITS).unwrap();
    assert_matches(&r, &reference("caliper-region-node-order.json", "summed"), "ordered summed");
    let g = |k: &str| r.globals.iter().find(|g| g.0 == k).map(|g| g.1);
    assert_eq!(g("mpi.world.size"), Some(1.0));
    assert_eq!(g("problem_size"), Some(30.0));
    assert_eq!(g("jobsize"), Some(1.0));
    assert_eq!(g("launchdate"), Some(1685046480.0));
    assert_eq!(g("figure_of_merit"), Some(218.037069));
    assert_eq!(g("cluster"), None, "text that is no number");
    assert_eq!(g(RANKS_GLOBAL), Some(1.0));
    assert_eq!(r.globals[0].0, "mpi.world.size", "in the file's order");
}

/// A small file: regions main, main->solve, main->io (nodes 0, 1, 2), its rows as given, a
/// time column in `unit` (or none).
fn small(rows: &str, unit: Option<&str>) -> String {
    let unit = unit.map_or(String::new(), |u| format!(", \"attribute.unit\": \"{u}\""));
    format!(
        "{{\n\"data\": [{rows}],\n\"columns\": [\"path\", \"mpi.rank\", \"sum#time.duration\"],\n\
         \"column_metadata\": [{{\"is_value\": false}}, {{\"is_value\": true}}, {{\"is_value\": true{unit}}}],\n\
         \"nodes\": [{{\"label\": \"main\", \"column\": \"path\"}}, {{\"label\": \"solve\", \"column\": \"path\", \"parent\": 0}},\n\
         {{\"label\": \"io\", \"column\": \"path\", \"parent\": 0}}],\n\"problem_size\": \"64\", \"mpi.world.size\": 2\n}}"
    )
}

fn err(text: &str, want: &Want) -> InputError {
    read(text.as_bytes(), want, &LIMITS).unwrap_err()
}

#[test]
fn rows_of_one_path_and_rank_add_up_and_the_largest_rank_is_the_max() {
    let t = small("[1, 0, 2.0], [1, 0, 3.0], [1, 1, 4.0], [0, 0, 1.0], [null, 0, 9.0], [2, 1, null]", Some("sec"));
    let r = read(t.as_bytes(), &exclusive(), &LIMITS).unwrap();
    assert_eq!(
        r.paths,
        [
            PathValue { path: "main->solve".into(), total: 9.0, max: 5.0 },
            PathValue { path: "main".into(), total: 1.0, max: 1.0 },
        ],
        "a null path is outside every region, a null value adds nothing"
    );
    assert_eq!(r.locations, 2);
    assert_eq!(r.globals, [("problem_size".into(), 64.0), ("mpi.world.size".into(), 2.0), (RANKS_GLOBAL.into(), 2.0)]);
    // Inclusive, summed up the tree: main holds its own and solve's, per rank.
    let r = read(t.as_bytes(), &inclusive(), &LIMITS).unwrap();
    assert_eq!(
        r.paths,
        [
            PathValue { path: "main".into(), total: 10.0, max: 6.0 },
            PathValue { path: "main->solve".into(), total: 9.0, max: 5.0 },
        ]
    );
}

#[test]
fn time_units_come_from_the_column_else_microseconds_for_time_duration() {
    for (unit, factor) in
        [(Some("sec"), 1.0), (Some("msec"), 1e-3), (Some("usec"), 1e-6), (Some("nsec"), 1e-9), (None, 1e-6)]
    {
        let r = read(small("[1, 0, 1000.0]", unit).as_bytes(), &exclusive(), &LIMITS).unwrap();
        assert!(close(r.paths[0].total, 1000.0 * factor), "{unit:?}: {}", r.paths[0].total);
    }
    let e = err(&small("[1, 0, 1.0]", Some("furlongs")), &exclusive());
    assert!(e.message.contains("\"furlongs\"") && e.message.contains("sum#time.duration"), "{e}");
}

#[test]
fn a_metric_is_found_by_its_name_its_column_or_as_time() {
    let by = |m: &str, inc: bool| read(LULESH, &Want { metric: Some(m.into()), inclusive: inc }, &LIMITS);
    assert_eq!(by("sum#time.duration", true).unwrap().metric, "sum#time.duration");
    let r = by("inclusive#sum#time.duration", true).unwrap();
    assert_matches(&r, &reference("lulesh-annotation-profile.json", "inclusive"), "by column name");
    assert_eq!(by("time", false).unwrap().metric, "sum#time.duration", "Hatchet's name for it");
    let r = read(CPI, &Want { metric: Some("count".into()), inclusive: false }, &LIMITS).unwrap();
    assert_eq!((r.metric.as_str(), r.paths[0].total), ("count", 62.0 + 62.0 + 62.0 + 69.0));
    let e = by("flops", false).unwrap_err();
    assert_eq!(e.message, "no metric \"flops\" in this file; it holds \"sum#time.duration\"");
}

#[test]
fn exclusive_values_of_a_metric_held_only_inclusively_are_refused() {
    let t = small("[1, 0, 1.0]", None).replace("\"sum#time.duration\"", "\"inclusive#sum#time.duration\"");
    let e = err(&t, &exclusive());
    assert!(e.message.contains("only inclusive"), "{e}");
    assert_eq!(read(t.as_bytes(), &inclusive(), &LIMITS).unwrap().paths[0].total, 1e-6);
}

#[test]
fn json_that_is_not_json_names_its_line_and_column() {
    let e = read(b"hello", &exclusive(), &LIMITS).unwrap_err();
    assert_eq!((e.field.as_str(), e.line, e.column), (FIELD, Some(1), Some(1)), "{e}");
    let broken = small("[1, 0, 2.0]", None).replace("[1, 0, 2.0]", "[1, 0 2.0]");
    let e = err(&broken, &exclusive());
    assert_eq!((e.line, e.column), (Some(2), Some(16)), "{e}");
    let e = read(&LULESH[..5000], &exclusive(), &LIMITS).unwrap_err();
    assert!(e.message.contains("ends early") && e.line.is_some(), "{e}");
    let e = err(&small("[1, 0, NaN]", None), &exclusive());
    assert!(e.message.contains("NaN") && e.line == Some(2), "{e}");
    let e = read(b"{\"data\": [[\"\xff\"]]}", &exclusive(), &LIMITS).unwrap_err();
    assert_eq!(e.line, Some(1), "{e}");
    let e = err(&small("[{}, 0, 1.0]", None), &exclusive());
    assert!(e.message.contains("a cell of a row") && e.line == Some(2), "{e}");
}

#[test]
fn other_json_is_told_for_what_it_looks_like() {
    let e = err("[{\"path\": \"main\", \"sum#time.duration\": 1.0}]", &exclusive());
    assert!(e.message.contains("Caliper's \"json\" layout"), "{e}");
    let e = err("{\"graph\": [], \"dataframe\": [], \"exclusive_metrics\": []}", &exclusive());
    assert!(e.message.contains("Hatchet's or Thicket's own JSON"), "{e}");
    let e = err("{\"records\": [], \"globals\": {}}", &exclusive());
    assert!(e.message.contains("written as an object"), "{e}");
    let e = err("{\"data\": [], \"columns\": [], \"title\": \"x\"}", &exclusive());
    assert_eq!(
        e.message,
        "no column_metadata, nodes key: a Caliper JSON file of a layout this reader does not know, or not \
         Caliper's (json-split has \"data\", \"columns\", \"column_metadata\" and \"nodes\"); its keys include \"title\""
    );
    let e = err("3.5", &exclusive());
    assert!(e.message.contains("a JSON object (Caliper's json-split)"), "{e}");
}

#[test]
fn bad_rows_and_nodes_are_refused_naming_where() {
    let cases = [
        (small("[1, 0, 1.0], [1, 0]", None), "row 2 has 2 cells but there are 3 columns"),
        (small("[7, 0, 1.0]", None), "row 1, column \"path\": expected a node index, 0 to 2, found 7"),
        (small("[1.5, 0, 1.0]", None), "row 1, column \"path\": expected a node index, 0 to 2, found 1.5"),
        (small("[1, -1, 1.0]", None), "row 1, column \"mpi.rank\": expected a rank (a whole number from 0), found -1"),
        (
            small("[1, 0, -2.5]", None),
            "row 1, column \"sum#time.duration\": a negative value, -2.5: expected one from 0",
        ),
        (
            small("[1, 0, 1.0], [2, 0, \"fast\"]", None),
            "row 2, column \"sum#time.duration\": expected a number or null, found text",
        ),
        (
            small("[1, 0, true]", None),
            "row 1, column \"sum#time.duration\": expected a number or null, found true or false",
        ),
        (
            small("[1, 0, 1.0]", None).replace("\"parent\": 0}],", "\"parent\": 9}],"),
            "node 2: its parent 9 is not a node (there are 3, from 0)",
        ),
        (
            small("[1, 0, 1.0]", None).replace("\"parent\": 0}],", "\"parent\": 4294967297}],"),
            "node 2: its parent 4294967297 is not a node",
        ),
        (
            small("[1, 0, 1.0]", None).replace("\"column\": \"path\"}", "\"column\": \"path\", \"parent\": 1}"),
            "node 0: its parents lead back to it (a cycle)",
        ),
        (
            small("[1, 0, 1.0]", None).replace("{\"is_value\": false}, ", ""),
            "3 columns but 2 entries of column_metadata: one each",
        ),
        (small("[1, 0, 1.0]", None).replace("\"path\", \"mpi", "\"region\", \"mpi"), "no call-path column"),
        (
            small("[1, 0, 1.0]", None)
                .replace("\"label\": \"solve\", \"column\": \"path\"", "\"label\": \"solve\", \"column\": \"module\""),
            "row 1, column \"path\": node 1 is a node of the column \"module\", not of this one",
        ),
        (small("[null, 0, 1.0]", None), "no row holds a value of \"sum#time.duration\" on a call path (of 1 rows)"),
        (small("[1, 0, 1e308], [1, 1, 1e308]", Some("sec")), "add up past the largest number"),
    ];
    for (text, says) in cases {
        let e = err(&text, &exclusive());
        assert_eq!(e.field, FIELD);
        assert!(e.message.contains(says), "{e}\nshould say: {says}");
    }
}

#[test]
fn past_a_limit_the_reading_stops_naming_it() {
    let tight = Limits { max_paths: 3, max_locations: 100 };
    let e = read(LULESH, &exclusive(), &tight).unwrap_err();
    assert_eq!(e.message, "more than 3 call paths (the limit of paths of one run)");
    let tight = Limits { max_paths: 100, max_locations: 2 };
    let e = read(CPI, &exclusive(), &tight).unwrap_err();
    assert_eq!(e.message, "more than 2 ranks (the limit of locations of one run)");
    let exact = Limits { max_paths: reference("lulesh-annotation-profile.json", "exclusive").len(), max_locations: 8 };
    assert!(read(LULESH, &exclusive(), &exact).is_ok(), "a limit reached is no limit passed");
}

#[test]
fn sniff_tells_json_split_from_what_else_it_could_be() {
    for f in [CPI, LULESH, ORDERED] {
        assert!(sniff(&f[..40]), "{}", String::from_utf8_lossy(&f[..40]));
    }
    assert!(sniff(b"  {\"columns\": [\"path\"]"));
    assert!(sniff(b"{\"data\":[]"));
    assert!(sniff(b"{\"cali.caliper.version\": \"2.10\", \"data\": [], \"columns\": [], \"nodes\": []}"));
    for other in [
        &b"[{\"path\": \"main\"}]"[..],
        b"{\"graph\": [{\"0\": {}}]}",
        b"{\"data\": {\"rows\": 3}}",
        b"__rec=node,id=12,attr=8,data=path",
        b"",
        b"{",
    ] {
        assert!(!sniff(other), "{}", String::from_utf8_lossy(other));
    }
}

#[test]
fn arbitrary_bytes_and_broken_files_never_panic() {
    // A fixed xorshift stream: bytes of every kind, and the test files cut and bitten.
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let tight = Limits { max_paths: 5, max_locations: 3 };
    for seed in [CPI, LULESH, ORDERED] {
        crate::fuzzing::cali_json(seed);
    }
    let mut read_ok = 0;
    for case in 0..3000 {
        let base: &[u8] = [ORDERED, LULESH, CPI][case % 3];
        // Half of them whole (bitten only), so that some still read.
        let cut = if case % 2 == 0 { base.len() } else { next() as usize % base.len() };
        let mut bytes = base[..cut].to_vec();
        for _ in 0..(next() % 4) {
            let at = next() as usize % bytes.len().max(1);
            if let Some(b) = bytes.get_mut(at) {
                *b = b"[]{},:\"0-1e9.ntulx\\ \n"[next() as usize % 21];
            }
        }
        if case % 10 == 0 {
            bytes = (0..(next() % 64)).map(|_| next() as u8).collect();
        }
        // The fuzz target's check (finite figures, a rank at most the total), and tight limits.
        crate::fuzzing::cali_json(&bytes);
        let _ = read(&bytes, &inclusive(), &tight);
        read_ok += usize::from(read(&bytes, &exclusive(), &LIMITS).is_ok());
    }
    assert!(read_ok > 100, "only {read_ok} of the bitten files read: the test reaches too little");
}
