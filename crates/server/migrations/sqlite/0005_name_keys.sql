-- Name keys now take the confusables skeleton before case folding (Greek and Cyrillic capitals
-- once passed as new names): every key is computed again at start-up, oldest account first, so
-- that of two older names with one key the older keeps it (`Store::fill_name_keys`).
UPDATE users SET name_key = NULL;
