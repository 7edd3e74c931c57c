-- Where this session loads extensions from, and the platform whose builds it loads.
SELECT current_setting('extension_directory') AS root,
       (SELECT platform FROM pragma_platform()) AS platform;
