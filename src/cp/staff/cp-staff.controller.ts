import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CpUser } from '../../commerce/staff/cp-user.entity';
import { STAFF_SORT_KEYS, StaffAdmin, StaffInvitation } from '../../commerce/staff/staff-admin.service';
import { STAFF_ROLES, staffRole } from '../../commerce/staff/staff-roles';
import { CpListQuery } from '../../common/cp-list.query';
import { requireConfirmation } from '../../common/cp-confirmation';
import { CpPermissionCatalogue } from '../../common/cp-permissions';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { CpStaff } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { CpNavigation } from '../../web/cp-navigation';
import { CpStaffConfirmDto, CpStaffEnabledDto, CpStaffFormDto, staffProfileFromForm } from './cp-staff-forms';

/**
 * Staff accounts: the list, invitations, names and rights (with roles that fill the form in), disabling and
 * password resets. The rules (who may grant what, one enabled admin always) are StaffAdmin's.
 */
@ApiExcludeController()
@CpPermission('accessStaff')
@Controller('users')
export class CpStaffController {
  constructor(
    private readonly staff: StaffAdmin,
    private readonly catalogue: CpPermissionCatalogue,
    private readonly navigation: CpNavigation,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery, @Req() req: Request): Promise<PageView> {
    const page = query.pageNumber;
    const sort = query.sortBy(STAFF_SORT_KEYS, { key: 'email', direction: 'ASC' });
    const { users, total, pages } = await this.staff.list(page, sort);
    return new PageView('cp/staff', {
      layout: 'cp',
      title: 'Staff',
      users: users.map((user) => ({ ...listed(user), self: user.id === req.cpStaff!.id })),
      total,
      page,
      pages,
    });
  }

  @Get('new')
  inviteForm(@Req() req: Request): PageView {
    return this.formPage(req.cpStaff!, null, { email: '', name: '', admin: false, permissions: [] });
  }

  /** A role's button fills the form in (nothing is saved); else the invitation goes out. */
  @Post()
  @HttpCode(200)
  async invite(@Body() body: CpStaffFormDto, @Req() req: Request): Promise<FormAnswer | PageView> {
    const invitation: StaffInvitation = { email: body.email ?? '', ...staffProfileFromForm(body) };
    if (body.role) return this.formPage(req.cpStaff!, null, withRole(invitation, body.role));
    const user = await this.staff.invite(req.cpStaff!, invitation);
    return FormAnswer.done(`Invitation sent to ${user.email}.`, { to: this.page(user.id) }, { id: user.id });
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<PageView> {
    const user = await this.staff.get(id);
    return this.formPage(req.cpStaff!, user, user);
  }

  @Post(':id')
  @HttpCode(200)
  async save(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpStaffFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer | PageView> {
    const profile = staffProfileFromForm(body);
    if (body.role) {
      const user = await this.staff.get(id);
      return this.formPage(req.cpStaff!, user, withRole({ ...profile, email: user.email }, body.role));
    }
    const user = await this.staff.update(req.cpStaff!, id, profile);
    return FormAnswer.done(`${user.email} saved.`, { to: this.page(id) }, { id });
  }

  @Post(':id/enabled')
  @HttpCode(200)
  async setEnabled(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpStaffEnabledDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const enabled = body.enabled === true || body.enabled === 'true';
    if (!enabled) requireConfirmation(body, 'Disabling the account');
    const user = await this.staff.setEnabled(req.cpStaff!, id, enabled);
    return FormAnswer.done(`${user.email} ${enabled ? 'enabled' : 'disabled'}.`, { to: this.page(id) }, { id });
  }

  @Post(':id/reset-password')
  @HttpCode(200)
  async resetPassword(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpStaffConfirmDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Resetting the password');
    const user = await this.staff.resetPassword(req.cpStaff!, id);
    return FormAnswer.done(`Password of ${user.email} reset: a link to choose a new one is on its way.`, {
      to: this.page(id),
    });
  }

  @Post(':id/resend-invite')
  @HttpCode(200)
  async resendInvite(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    const user = await this.staff.resendLink(req.cpStaff!, id);
    return FormAnswer.done(`A new link was sent to ${user.email}; earlier ones no longer work.`, {
      to: this.page(id),
    });
  }

  /**
   * The invitation (`user` null) or edit form. A manager who is not an admin sees the rights they may not
   * change greyed out; their current values ride along in hidden fields, so saving keeps them.
   */
  private formPage(actor: CpStaff, user: CpUser | null, values: StaffInvitation): PageView {
    const permissions = this.catalogue.all().map((name) => ({
      name,
      pages: this.navigation.labelsOf(name).join(', '),
      checked: values.permissions.includes(name),
      locked: !actor.admin && !actor.permissions.includes(name),
    }));
    return new PageView('cp/staff-form', {
      layout: 'cp',
      title: user ? user.email : 'Invite staff',
      user: user && listed(user),
      values,
      permissions,
      roles: STAFF_ROLES.filter((role) => actor.admin || !role.admin),
      adminLocked: !actor.admin,
      self: user?.id === actor.id,
    });
  }

  private page(id: number): string {
    return `/${this.config.cpTrigger}/users/${id}`;
  }
}

/** A user as the pages show them: never the password hash. */
function listed(user: CpUser) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    admin: user.admin,
    permissions: user.permissions,
    enabled: user.enabled,
    /** No password yet: the invitation (or a reset's link) is still open. */
    waitingForPassword: user.passwordHash === '',
    lastLoginAt: user.lastLoginAt,
  };
}

/** The form's values with a role's rights in place of the ticked ones. */
function withRole(values: StaffInvitation, key: string): StaffInvitation {
  const role = staffRole(key)!;
  return { ...values, admin: role.admin, permissions: [...role.permissions] };
}
