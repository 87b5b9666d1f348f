/*
 * Functions known not to change state: PostgreSQL's built-in functions that a query calls to
 * compute, format, aggregate or inspect. On a protected profile or in a read-only tab, a call to
 * any function *not* on this list counts as a write (src/main/sql-guard/classify.ts): a user's own function, an
 * extension's, or a built-in with side effects (nextval, lo_*, pg_notify, dblink_*, advisory
 * locks...). An allow-list fails safe where a deny-list would have to grow forever.
 *
 * Names are PostgreSQL's (lower case). A name here is allowed only unqualified or qualified with
 * `pg_catalog.`; `myschema.count(...)` is someone else's function and is not trusted.
 */

const AGGREGATES_AND_WINDOWS = `
  count sum avg min max every bool_and bool_or bit_and bit_or bit_xor any_value
  array_agg string_agg json_agg jsonb_agg json_object_agg jsonb_object_agg json_agg_strict
  jsonb_agg_strict json_object_agg_strict jsonb_object_agg_strict json_object_agg_unique
  jsonb_object_agg_unique json_arrayagg json_objectagg xmlagg range_agg range_intersect_agg
  stddev stddev_pop stddev_samp variance var_pop var_samp corr covar_pop covar_samp
  regr_avgx regr_avgy regr_count regr_intercept regr_r2 regr_slope regr_sxx regr_sxy regr_syy
  percentile_cont percentile_disc mode rank dense_rank percent_rank cume_dist row_number
  ntile lag lead first_value last_value nth_value grouping`

const CONDITIONALS_AND_SYNTAX = `
  coalesce nullif greatest least cast treat extract overlay position substring trim normalize
  collation xmlelement xmlforest xmlconcat xmlparse xmlpi xmlroot xmlserialize xmlexists
  xmltable xpath xpath_exists xml_is_well_formed json json_scalar json_serialize json_object
  json_array json_exists json_query json_value json_table is_json bernoulli system`

const STRINGS = `
  length char_length character_length octet_length bit_length lower upper initcap concat
  concat_ws format left right lpad rpad ltrim rtrim btrim repeat replace reverse split_part
  strpos substr starts_with translate ascii chr md5 sha224 sha256 sha384 sha512 encode decode
  quote_ident quote_literal quote_nullable regexp_match regexp_matches regexp_replace
  regexp_split_to_array regexp_split_to_table regexp_count regexp_instr regexp_like
  regexp_substr string_to_array string_to_table array_to_string to_hex to_bin to_oct to_ascii
  unistr casefold convert convert_from convert_to parse_ident pg_client_encoding crc32 crc32c
  get_byte get_bit set_byte set_bit bit_count text_pattern_ops similar_to_escape`

const NUMBERS = `
  abs cbrt ceil ceiling degrees div exp factorial floor gcd lcm ln log log10 min_scale mod pi
  power pow radians round scale sign sqrt trim_scale trunc width_bucket acos asin atan atan2 cos
  cot sin tan acosd asind atand atan2d cosd cotd sind tand sinh cosh tanh asinh acosh atanh erf
  erfc gamma lgamma random random_normal gen_random_uuid uuidv4 uuidv7 uuid_extract_timestamp
  uuid_extract_version num_nulls num_nonnulls`

const DATES = `
  now current_timestamp current_date current_time localtime localtimestamp clock_timestamp
  statement_timestamp transaction_timestamp timeofday age date_part date_trunc date_bin
  date_add date_subtract isfinite justify_days justify_hours justify_interval make_date
  make_time make_timestamp make_timestamptz make_interval to_char to_date to_number
  to_timestamp timezone overlaps pg_sleep pg_sleep_for pg_sleep_until`

const ARRAYS_AND_SETS = `
  array_append array_cat array_dims array_fill array_length array_lower array_upper
  array_ndims array_position array_positions array_prepend array_remove array_replace
  array_reverse array_sample array_shuffle array_sort cardinality trim_array unnest
  generate_series generate_subscripts`

const JSON_FUNCTIONS = `
  to_json to_jsonb array_to_json row_to_json json_build_array jsonb_build_array
  json_build_object jsonb_build_object jsonb_object json_array_length jsonb_array_length
  json_each jsonb_each json_each_text jsonb_each_text json_extract_path jsonb_extract_path
  json_extract_path_text jsonb_extract_path_text json_object_keys jsonb_object_keys
  json_populate_record jsonb_populate_record json_populate_recordset jsonb_populate_recordset
  json_array_elements jsonb_array_elements json_array_elements_text jsonb_array_elements_text
  json_typeof jsonb_typeof json_to_record jsonb_to_record json_to_recordset jsonb_to_recordset
  json_strip_nulls jsonb_strip_nulls jsonb_set jsonb_set_lax jsonb_insert jsonb_pretty
  jsonb_path_exists jsonb_path_match jsonb_path_query jsonb_path_query_array
  jsonb_path_query_first jsonb_path_exists_tz jsonb_path_match_tz jsonb_path_query_tz
  jsonb_path_query_array_tz jsonb_path_query_first_tz jsonb_populate_record_valid`

const RANGES_NETWORK_GEOMETRY_TEXT_SEARCH = `
  isempty lower_inc upper_inc lower_inf upper_inf range_merge multirange int4range int8range
  numrange tsrange tstzrange daterange int4multirange int8multirange nummultirange
  tsmultirange tstzmultirange datemultirange host hostmask masklen netmask network family
  abbrev broadcast inet_merge inet_same_family set_masklen macaddr8_set7bit trunc point box
  circle line lseg path polygon area center diameter height width npoints radius isclosed
  isopen pclose popen bound_box slope to_tsvector to_tsquery plainto_tsquery phraseto_tsquery
  websearch_to_tsquery ts_rank ts_rank_cd ts_headline setweight strip numnode querytree
  ts_debug ts_lexize ts_parse ts_token_type tsvector_to_array array_to_tsvector ts_delete
  ts_filter get_current_ts_config json_to_tsvector jsonb_to_tsvector`

const SYSTEM_INFORMATION = `
  current_database current_catalog current_schema current_schemas current_user session_user
  current_role user version current_setting inet_client_addr inet_client_port
  inet_server_addr inet_server_port pg_backend_pid pg_postmaster_start_time
  pg_conf_load_time pg_is_in_recovery pg_typeof pg_size_pretty pg_size_bytes
  pg_database_size pg_relation_size pg_total_relation_size pg_table_size pg_indexes_size
  pg_tablespace_size pg_column_size pg_column_compression pg_get_viewdef pg_get_indexdef
  pg_get_constraintdef pg_get_functiondef pg_get_function_arguments
  pg_get_function_identity_arguments pg_get_function_result pg_get_triggerdef pg_get_ruledef
  pg_get_expr pg_get_keywords pg_get_serial_sequence pg_get_userbyid pg_get_statisticsobjdef
  pg_get_partkeydef pg_partition_tree pg_partition_root pg_partition_ancestors
  pg_table_is_visible pg_type_is_visible pg_function_is_visible pg_opclass_is_visible
  pg_operator_is_visible pg_collation_is_visible pg_conversion_is_visible
  has_table_privilege has_schema_privilege has_database_privilege has_column_privilege
  has_any_column_privilege has_function_privilege has_sequence_privilege
  has_tablespace_privilege has_type_privilege has_language_privilege has_parameter_privilege
  pg_has_role row_security_active format_type obj_description col_description
  shobj_description to_regclass to_regtype to_regtypemod to_regproc to_regprocedure
  to_regnamespace to_regrole to_regoper to_regoperator to_regcollation pg_encoding_to_char
  pg_char_to_encoding pg_relation_filenode pg_relation_filepath pg_filenode_relation
  pg_current_snapshot pg_snapshot_xmin pg_snapshot_xmax pg_snapshot_xip
  pg_visible_in_snapshot pg_xact_status txid_current_if_assigned txid_current_snapshot
  txid_snapshot_xmin txid_snapshot_xmax txid_snapshot_xip txid_visible_in_snapshot
  txid_status pg_last_xact_replay_timestamp pg_last_wal_receive_lsn pg_last_wal_replay_lsn
  pg_current_wal_lsn pg_current_wal_insert_lsn pg_current_wal_flush_lsn pg_wal_lsn_diff
  pg_walfile_name pg_walfile_name_offset pg_blocking_pids pg_safe_snapshot_blocking_pids
  pg_jit_available pg_listening_channels pg_notification_queue_usage pg_options_to_table
  pg_describe_object pg_identify_object pg_identify_object_as_address
  pg_index_column_has_property pg_index_has_property pg_indexam_has_property
  pg_input_is_valid pg_input_error_info pg_trigger_depth pg_get_object_address
  pg_settings_get_flags pg_tablespace_location pg_tablespace_databases pg_stat_get_activity
  pg_stat_get_backend_pid pg_get_wal_replay_pause_state pg_is_wal_replay_paused
  pg_available_extensions pg_available_extension_versions pg_control_checkpoint
  pg_control_system pg_control_init pg_control_recovery pg_get_catalog_foreign_keys
  pg_get_replica_identity_index pg_get_multixact_members pg_my_temp_schema
  pg_is_other_temp_schema pg_current_logfile`

/** Type names called like functions (`text(x)`, `numeric(10, 2)` after a type's first word). */
const TYPE_NAMES = `
  int int2 int4 int8 integer smallint bigint numeric decimal real float float4 float8 bool
  boolean text varchar char character varying bpchar name date time timetz timestamp
  timestamptz interval uuid json jsonb bytea bit varbit inet cidr macaddr macaddr8 money oid
  regclass regtype regproc regprocedure regnamespace regrole xml tsvector tsquery`

/** Widely installed extensions' pure functions (pgcrypto, uuid-ossp, pg_trgm, fuzzystrmatch). */
const EXTENSIONS = `
  digest hmac crypt gen_salt gen_random_bytes uuid_generate_v1 uuid_generate_v1mc
  uuid_generate_v4 uuid_nil similarity word_similarity strict_word_similarity
  show_trgm levenshtein soundex difference metaphone dmetaphone cube`

export const READ_ONLY_FUNCTIONS: ReadonlySet<string> = new Set(
  [
    AGGREGATES_AND_WINDOWS,
    CONDITIONALS_AND_SYNTAX,
    STRINGS,
    NUMBERS,
    DATES,
    ARRAYS_AND_SETS,
    JSON_FUNCTIONS,
    RANGES_NETWORK_GEOMETRY_TEXT_SEARCH,
    SYSTEM_INFORMATION,
    TYPE_NAMES,
    EXTENSIONS,
  ]
    .join(' ')
    .split(/\s+/)
    .filter((name) => name !== ''),
)

/**
 * Functions that change state although a SELECT may call them. Any function off the read-only
 * list is a write already; these get a plainer reason ("changes state") in the refusal.
 */
const KNOWN_WRITERS = new Set([
  'nextval',
  'setval',
  'set_config',
  'setseed',
  'pg_notify',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_switch_wal',
  'pg_promote',
  'pg_create_restore_point',
  'pg_file_write',
  'pg_import_system_collations',
  'txid_current',
  'pg_current_xact_id',
  'loread',
  'lowrite',
])
const KNOWN_WRITER_PREFIXES = [
  'lo_',
  'dblink',
  'pg_logical_',
  'pg_stat_reset',
  'pg_replication_',
  'pg_advisory_',
  'pg_try_advisory_',
  'pg_create_',
  'pg_drop_',
  'pg_copy_',
  'pg_wal_replay_',
  'pg_backup_',
]

export function isKnownWriter(name: string): boolean {
  return KNOWN_WRITERS.has(name) || KNOWN_WRITER_PREFIXES.some((prefix) => name.startsWith(prefix))
}
