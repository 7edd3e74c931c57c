-- The ETag and Last-Modified of the last successful fetch of each URL.
SELECT url, etag, last_modified
FROM lake.main.fetches
WHERE outcome = 'ok'
QUALIFY row_number() OVER (PARTITION BY url ORDER BY fetched_at DESC) = 1;
