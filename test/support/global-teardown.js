// Drops the migrated template database made by global-setup.js.
const { dropSchemaTemplate } = require('./schema-template');

module.exports = dropSchemaTemplate;
